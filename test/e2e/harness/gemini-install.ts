/**
 * On-demand install of the real Google Gemini CLI into `<repo>/.cache/gemini-cli/<version>/`.
 *
 * The npm package `@google/gemini-cli` is a bundled Node program (`bundle/gemini.js`, ESM, Node >= 20)
 * plus optional native helpers (node-pty, keytar) the headless `-p` runs here don't need, so
 * `--ignore-scripts` loses nothing.
 *
 * Concurrent installs: each installer works in its own temp dir and renames it into place; the
 * loser of the race throws its copy away and uses the winner's.
 *
 * `GEMINI_E2E_JS=/path/to/bundle/gemini.js` skips the install (use a client you have).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { repoRoot } from "./claude-install.js";

/** The one pinned Gemini CLI version the e2e tests run. */
export const GEMINI_CLI_VERSION = "0.61.0";
export const GEMINI_CLI_PACKAGE = "@google/gemini-cli";

export interface GeminiInstall {
	/** `bundle/gemini.js`: run it with `node`. */
	entry: string;
	version: string;
}

export function geminiCacheDir(version = GEMINI_CLI_VERSION): string {
	return join(repoRoot(), ".cache", "gemini-cli", version);
}

/** The install inside a prefix, if it is complete and of this version. */
export function findGeminiIn(prefix: string, version = GEMINI_CLI_VERSION): GeminiInstall | undefined {
	const root = join(prefix, "node_modules", "@google", "gemini-cli");
	const pj = join(root, "package.json");
	if (!existsSync(pj) || (JSON.parse(readFileSync(pj, "utf8")) as { version?: string }).version !== version) return undefined;
	const entry = join(root, "bundle", "gemini.js");
	return existsSync(entry) ? { entry, version } : undefined;
}

function installInto(prefix: string, version: string, log: (msg: string) => void): void {
	mkdirSync(prefix, { recursive: true });
	// A package.json keeps npm from walking up into the repo's own package.json.
	writeFileSync(join(prefix, "package.json"), JSON.stringify({ name: "gemini-cli-e2e-cache", private: true }) + "\n");
	log(`installing ${GEMINI_CLI_PACKAGE}@${version} into ${prefix}`);
	execFileSync(
		"npm",
		["install", "--prefix", prefix, "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--engine-strict=false", "--loglevel=error", `${GEMINI_CLI_PACKAGE}@${version}`],
		{ stdio: ["ignore", "pipe", "pipe"], cwd: prefix, timeout: 300_000 },
	);
}

let cached: GeminiInstall | undefined;

/**
 * Make sure the pinned Gemini CLI is installed and return its entry script.
 * Reuses an existing install; safe to call from several processes at once.
 */
export function ensureGeminiCli(opts: { version?: string; log?: (msg: string) => void } = {}): GeminiInstall {
	const version = opts.version ?? GEMINI_CLI_VERSION;
	const override = process.env.GEMINI_E2E_JS;
	if (override) return { entry: override, version };
	if (cached && cached.version === version) return cached;
	const log = opts.log ?? ((m: string) => process.stderr.write(`[gemini-install] ${m}\n`));
	const target = geminiCacheDir(version);
	let found = existsSync(target) ? findGeminiIn(target, version) : undefined;
	if (!found) {
		const parent = dirname(target);
		mkdirSync(parent, { recursive: true });
		const tmp = join(parent, `.tmp-${version}-${process.pid}-${Date.now()}`);
		const started = Date.now();
		try {
			installInto(tmp, version, log);
			if (!findGeminiIn(tmp, version)) throw new Error(`no bundle/gemini.js found after installing into ${tmp}`);
			if (existsSync(target) && !findGeminiIn(target, version)) rmSync(target, { recursive: true, force: true }); // broken leftover
			try {
				renameSync(tmp, target);
			} catch (err) {
				// Another process won the race: use its install.
				if (!findGeminiIn(target, version)) throw err;
			}
		} finally {
			rmSync(tmp, { recursive: true, force: true });
		}
		log(`installed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
		found = findGeminiIn(target, version);
		if (!found) throw new Error(`Gemini CLI install at ${target} has no bundle/gemini.js`);
	}
	cached = found;
	return found;
}
