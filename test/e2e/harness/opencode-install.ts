/**
 * On-demand install of the real opencode CLI into `<repo>/.cache/opencode/<version>/`.
 *
 * The npm package `opencode-ai` is a small launcher; the native binary (a Bun-compiled
 * executable) ships in per-platform optional dependencies (`opencode-linux-x64`,
 * `opencode-linux-x64-baseline` for CPUs without AVX2, `-musl`, …) under `bin/opencode`. Its
 * postinstall only links the right one into `opencode-ai/bin/`: with `--ignore-scripts` the
 * platform binary is run directly, and nothing is downloaded outside the npm registry.
 *
 * `OPENCODE_E2E_BIN=/path/to/opencode` skips the install (use a binary you have).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./claude-install.js";
import { installOnce, npmInstall } from "./npm-install.js";

/** The one pinned opencode version the e2e tests run (npm `latest` when the fixtures were recorded). */
export const OPENCODE_VERSION = "1.18.33";
export const OPENCODE_PACKAGE = "opencode-ai";

export interface OpencodeInstall {
	/** The native binary. */
	bin: string;
	version: string;
}

export function opencodeCacheDir(version = OPENCODE_VERSION): string {
	return join(repoRoot(), ".cache", "opencode", version);
}

/** The platform packages that may hold a binary for this machine, best first. */
function platformPackages(): string[] {
	const os = process.platform === "win32" ? "windows" : process.platform;
	const base = `opencode-${os}-${process.arch}`;
	return [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`];
}

/** The install inside a prefix, if it is complete, of this version, and its binary runs here. */
export function findOpencodeIn(prefix: string, version = OPENCODE_VERSION): OpencodeInstall | undefined {
	const pj = join(prefix, "node_modules", OPENCODE_PACKAGE, "package.json");
	if (!existsSync(pj) || (JSON.parse(readFileSync(pj, "utf8")) as { version?: string }).version !== version) return undefined;
	for (const pkg of platformPackages()) {
		const bin = join(prefix, "node_modules", pkg, "bin", process.platform === "win32" ? "opencode.exe" : "opencode");
		if (!existsSync(bin)) continue;
		// A binary for a CPU feature or libc this machine lacks exits at once: the next one is tried.
		// Its folders in a scratch place: even `--version` makes opencode's data and log folders.
		const scratch = join(prefix, ".version-check");
		const env = { ...process.env, HOME: scratch, XDG_DATA_HOME: join(scratch, "data"), XDG_CONFIG_HOME: join(scratch, "config"), XDG_STATE_HOME: join(scratch, "state"), XDG_CACHE_HOME: join(scratch, "cache") };
		const run = spawnSync(bin, ["--version"], { encoding: "utf8", env, timeout: 60_000 });
		if (run.status === 0 && run.stdout.trim() === version) return { bin, version };
	}
	return undefined;
}

let cached: OpencodeInstall | undefined;

/**
 * Make sure the pinned opencode is installed and return its native binary.
 * Reuses an existing install; safe to call from several processes at once.
 */
export function ensureOpencode(opts: { version?: string; log?: (msg: string) => void } = {}): OpencodeInstall {
	const override = process.env.OPENCODE_E2E_BIN;
	const version = opts.version ?? OPENCODE_VERSION;
	if (override) return { bin: override, version };
	if (cached && cached.version === version) return cached;
	const log = opts.log ?? ((m: string) => process.stderr.write(`[opencode-install] ${m}\n`));
	// The binary IS the optional dependency: a config that omits optionals would leave only the launcher.
	const found = installOnce(opencodeCacheDir(version), (dir) => findOpencodeIn(dir, version), (tmp) => npmInstall(tmp, `${OPENCODE_PACKAGE}@${version}`, log, ["--include=optional"]), log, `opencode ${version}`);
	cached = found;
	return found;
}
