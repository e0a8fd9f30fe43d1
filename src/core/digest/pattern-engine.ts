/**
 * The engine of the user's own redaction patterns: RE2 (re2js), linear in the text whatever the
 * pattern. Apart from the redactor, so that what only checks a pattern (the settings, read by
 * every hook) does not load the built-in rules with it.
 */

let re2js: typeof import("re2js") | undefined;

/** RE2 could not be loaded (the CLI's `re2js.cjs` is not beside it): the user's patterns cannot run. */
export class PatternEngineMissingError extends Error {}

/**
 * re2js, loaded only for a user who has patterns of their own: its Unicode tables cost every
 * thread memory. The CLI's bundles take it from `re2js.cjs` beside them (see esbuild.config.mjs);
 * when that cannot load, redaction stops with a sentence rather than leave the patterns out.
 */
export function re2(): typeof import("re2js") {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
		re2js ??= require("re2js") as typeof import("re2js");
	} catch (error) {
		throw new PatternEngineMissingError(`the engine of your own redaction patterns (re2js) could not be loaded (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); nothing is synced until it can: build again (npm run build:cli) or install the hooks again`);
	}
	return re2js;
}

/** Why RE2 refuses a pattern of the user's (lookaround, a backreference, bad syntax), undefined when it compiles. */
export function patternError(source: string): string | undefined {
	try {
		re2().RE2JS.compile(source);
		return undefined;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}
