/**
 * On-demand install of the real Claude Code CLI into `<repo>/.cache/claude-code/<version>/`.
 *
 * The npm package `@anthropic-ai/claude-code` is a thin wrapper: its native binary
 * ships in a per-platform optional dependency (`@anthropic-ai/claude-code-linux-x64`,
 * ...), and the wrapper's postinstall (`node install.cjs`) copies/hard-links that
 * binary over the `bin/claude.exe` placeholder. Nothing is downloaded from outside
 * the npm registry. npm 11 warns that the postinstall is "not yet covered by
 * allowScripts" (and a stricter config would skip it), so we install with
 * `--ignore-scripts` and run `install.cjs` ourselves; if that still leaves the
 * placeholder, we use the platform package's binary directly.
 *
 * Concurrent installs: each installer works in its own temp dir and renames it
 * into place; the loser of the race throws its copy away and uses the winner's.
 *
 * `CLAUDE_CODE_E2E_BIN=/path/to/claude` skips the install (use a binary you have).
 */
import { execFileSync } from "node:child_process";
import { existsSync, openSync, readSync, closeSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installOnce, npmInstall } from "./npm-install.js";

/** The one pinned Claude Code version the e2e tests run. */
export const CLAUDE_CODE_VERSION = "2.1.337";
export const CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code";

/** Walk up from this file to the folder holding package.json (works from a bundle under .cache/ too). */
export function repoRoot(): string {
	let dir = dirname(fileURLToPath(import.meta.url));
	for (;;) {
		if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "test", "e2e"))) return dir;
		const up = dirname(dir);
		if (up === dir) throw new Error("repoRoot: no package.json with test/e2e above " + fileURLToPath(import.meta.url));
		dir = up;
	}
}

export function claudeCacheDir(version = CLAUDE_CODE_VERSION): string {
	return join(repoRoot(), ".cache", "claude-code", version);
}

/** True when the file starts like a native executable (ELF, Mach-O or PE), not the shell placeholder. */
function isNativeBinary(file: string): boolean {
	if (!existsSync(file)) return false;
	const buf = Buffer.alloc(4);
	const fd = openSync(file, "r");
	try {
		readSync(fd, buf, 0, 4, 0);
	} finally {
		closeSync(fd);
	}
	const magic = buf.readUInt32BE(0);
	return (
		magic === 0x7f454c46 || // ELF
		magic === 0xcffaedfe || // Mach-O 64 LE
		magic === 0xcefaedfe ||
		magic === 0xcafebabe || // fat
		buf.subarray(0, 2).toString("latin1") === "MZ"
	);
}

function platformPackageNames(): string[] {
	const arch = process.arch;
	if (process.platform === "linux") return [`${CLAUDE_CODE_PACKAGE}-linux-${arch}`, `${CLAUDE_CODE_PACKAGE}-linux-${arch}-musl`];
	if (process.platform === "darwin") return [`${CLAUDE_CODE_PACKAGE}-darwin-${arch}`];
	if (process.platform === "win32") return [`${CLAUDE_CODE_PACKAGE}-win32-${arch}`];
	return [];
}

/** Find the native binary inside an install prefix, or undefined. */
export function findBinaryIn(prefix: string): string | undefined {
	const nm = join(prefix, "node_modules");
	const wrapperBin = join(nm, CLAUDE_CODE_PACKAGE, "bin", "claude.exe");
	if (isNativeBinary(wrapperBin)) return wrapperBin;
	for (const pkg of platformPackageNames()) {
		for (const name of ["claude", "claude.exe"]) {
			const p = join(nm, pkg, name);
			if (isNativeBinary(p)) return p;
		}
	}
	return undefined;
}

function installInto(prefix: string, version: string, log: (msg: string) => void): void {
	npmInstall(prefix, `${CLAUDE_CODE_PACKAGE}@${version}`, log);
	// Run the wrapper's postinstall ourselves (it only links the platform binary into bin/).
	const wrapperDir = join(prefix, "node_modules", CLAUDE_CODE_PACKAGE);
	try {
		execFileSync(process.execPath, ["install.cjs"], { cwd: wrapperDir, stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
	} catch (err) {
		log(`install.cjs failed (${String(err).slice(0, 200)}); falling back to the platform package binary`);
	}
}

let cached: string | undefined;

/**
 * Make sure the pinned Claude Code is installed and return the path of its native binary.
 * Reuses an existing install; safe to call from several processes at once.
 */
export function ensureClaudeCode(opts: { version?: string; log?: (msg: string) => void } = {}): string {
	const override = process.env.CLAUDE_CODE_E2E_BIN;
	if (override) return override;
	const version = opts.version ?? CLAUDE_CODE_VERSION;
	if (cached && version === CLAUDE_CODE_VERSION) return cached;
	const log = opts.log ?? ((m: string) => process.stderr.write(`[claude-install] ${m}\n`));
	const bin = installOnce(claudeCacheDir(version), findBinaryIn, (tmp) => installInto(tmp, version, log), log, `Claude Code ${version}`);
	if (statSync(bin).size < 1_000_000) throw new Error(`${bin} is too small to be the Claude Code binary`);
	if (version === CLAUDE_CODE_VERSION) cached = bin;
	return bin;
}
