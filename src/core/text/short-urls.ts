/**
 * Web addresses in a line of text told by their host and last path part
 * (`https://github.com/acme/shop/blob/main/docs/setup.md?plain=1` reads `github.com/…/setup.md`):
 * what a reader recognizes an address by, in a fraction of its length. The part before the last
 * comes too when the last is a number, which names nothing alone (`…/pull/12`). An address inside
 * a code span is left as written: it is quoted, to be used as is.
 */
const URL = /\bhttps?:\/\/([^\s/?#`"'<>()]+)(\/[^\s?#`"'<>]*)?(?:[?#][^\s`"'<>]*)?/gi;

export function shortUrls(text: string): string {
	return text
		.split(/(`[^`\n]*`)/)
		.map((part, i) => (i % 2 === 1 ? part : part.replace(URL, (whole, host: string, path: string | undefined) => shortUrl(whole, host, path ?? ""))))
		.join("");
}

function shortUrl(whole: string, host: string, path: string): string {
	// A sentence's own stop after an address is not part of it, nor the ")" closing words around it.
	const stop = (path.includes("(") ? /[.,;:!]+$/ : /[.,;:!)]+$/).exec(path)?.[0] ?? "";
	const parts = path.slice(0, path.length - stop.length).split("/").filter((p) => p !== "");
	const last = parts.length > 1 && /^\d+$/.test(parts[parts.length - 1]!) ? parts.slice(-2) : parts.slice(-1);
	const short = `${host}${parts.length > last.length ? "/…" : ""}${last.length > 0 ? `/${last.join("/")}` : ""}${stop}`;
	return short.length < whole.length ? short : whole;
}
