/**
 * On-demand install of the real OpenAI Codex CLI into `<repo>/.cache/codex/<version>/`.
 *
 * The npm package `@openai/codex` is a small Node launcher (`bin/codex.js`); the native binary
 * ships in a per-platform optional dependency (`@openai/codex-linux-x64` is an alias of
 * `@openai/codex@<version>-linux-x64`, ...) under `vendor/<target triple>/bin/codex`. There is no
 * postinstall and no download outside the npm registry, so `--ignore-scripts` loses nothing.
 *
 * Concurrent installs: each installer works in its own temp dir and renames it into place; the
 * loser of the race throws its copy away and uses the winner's.
 *
 * `CODEX_E2E_BIN=/path/to/codex` skips the install (use a binary you have).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { repoRoot } from "./claude-install.js";
import { installOnce, npmInstall } from "./npm-install.js";

/** The one pinned Codex CLI version the e2e tests run. */
export const CODEX_VERSION = "0.171.0";
export const CODEX_PACKAGE = "@openai/codex";

export interface CodexInstall {
	/** The native binary (what `bin/codex.js` execs). */
	bin: string;
	/** The `@openai/codex` package folder (the launcher passes it to the binary as `CODEX_MANAGED_PACKAGE_ROOT`). */
	packageRoot: string;
	version: string;
}

export function codexCacheDir(version = CODEX_VERSION): string {
	return join(repoRoot(), ".cache", "codex", version);
}

/** The launcher's platform table: npm alias of the platform package, and the vendor folder's target triple. */
function platformTarget(): { pkg: string; triple: string } | undefined {
	const key = `${process.platform}-${process.arch}`;
	const triples: Record<string, string> = {
		"linux-x64": "x86_64-unknown-linux-musl",
		"linux-arm64": "aarch64-unknown-linux-musl",
		"darwin-x64": "x86_64-apple-darwin",
		"darwin-arm64": "aarch64-apple-darwin",
		"win32-x64": "x86_64-pc-windows-msvc",
		"win32-arm64": "aarch64-pc-windows-msvc",
	};
	const triple = triples[key];
	return triple ? { pkg: `${CODEX_PACKAGE}-${key}`, triple } : undefined;
}

/** The install inside a prefix, if it is complete and of this version. */
export function findCodexIn(prefix: string, version = CODEX_VERSION): CodexInstall | undefined {
	const target = platformTarget();
	if (!target) return undefined;
	const packageRoot = join(prefix, "node_modules", CODEX_PACKAGE);
	const pj = join(packageRoot, "package.json");
	if (!existsSync(pj) || (JSON.parse(readFileSync(pj, "utf8")) as { version?: string }).version !== version) return undefined;
	const bin = join(prefix, "node_modules", target.pkg, "vendor", target.triple, "bin", process.platform === "win32" ? "codex.exe" : "codex");
	if (!existsSync(bin) || statSync(bin).size < 1_000_000) return undefined;
	return { bin, packageRoot, version };
}


let cached: CodexInstall | undefined;

/**
 * Make sure the pinned Codex CLI is installed and return its native binary.
 * Reuses an existing install; safe to call from several processes at once.
 */
export function ensureCodex(opts: { version?: string; log?: (msg: string) => void } = {}): CodexInstall {
	const override = process.env.CODEX_E2E_BIN;
	if (override) return { bin: override, packageRoot: dirname(override), version: opts.version ?? CODEX_VERSION };
	const version = opts.version ?? CODEX_VERSION;
	if (cached && cached.version === version) return cached;
	const log = opts.log ?? ((m: string) => process.stderr.write(`[codex-install] ${m}\n`));
	if (!platformTarget()) throw new Error(`Codex CLI has no native binary for ${process.platform}-${process.arch}`);
	// The binary IS the optional dependency: a config that omits optionals would leave only the launcher.
	const found = installOnce(codexCacheDir(version), (dir) => findCodexIn(dir, version), (tmp) => npmInstall(tmp, `${CODEX_PACKAGE}@${version}`, log, ["--include=optional"]), log, `Codex CLI ${version}`);
	cached = found;
	return found;
}
