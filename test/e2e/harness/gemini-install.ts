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
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./claude-install.js";
import { installOnce, npmInstall } from "./npm-install.js";

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
	const found = installOnce(geminiCacheDir(version), (dir) => findGeminiIn(dir, version), (tmp) => npmInstall(tmp, `${GEMINI_CLI_PACKAGE}@${version}`, log), log, `Gemini CLI ${version}`);
	cached = found;
	return found;
}
