import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, it } from "vitest";

/**
 * Cases an implementation is known to break, by case title; the value names the bug. Such a case
 * runs as `it.fails`: the suite stays green while the bug is there and turns red once it is fixed,
 * so the entry is removed then.
 */
export type KnownViolations = Readonly<Record<string, string>>;

/**
 * `it` for a contract suite: a known violation runs as `it.fails`. A violation naming no case of
 * the suite (a typo, a renamed case) fails the suite, so none goes stale silently.
 */
export function contractCases(violations: KnownViolations = {}): (title: string, fn: () => Promise<void>) => void {
	const titles = new Set<string>();
	afterAll(() => {
		const unknown = Object.keys(violations).filter((t) => !titles.has(t));
		if (unknown.length > 0) throw new Error(`known violations name no case: ${unknown.join("; ")}`);
	});
	return (title, fn) => {
		titles.add(title);
		const bug = violations[title];
		// CONTRACT_STRICT=1 runs them as plain cases, to see how they fail.
		if (bug === undefined || process.env.CONTRACT_STRICT === "1") it(title, fn);
		else it.fails(`${title} [known violation: ${bug}]`, fn);
	};
}

/** A fresh temporary folder, and how to remove it. */
export async function tempDir(prefix: string): Promise<{ path: string; cleanup: () => Promise<void> }> {
	const path = await mkdtemp(join(tmpdir(), `${prefix}-`));
	return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Texts that break a careless round trip: non-ASCII (two-, three- and four-byte), CRLF, no final newline, BOM, empty. */
export const TRICKY_TEXTS: readonly { what: string; text: string }[] = [
	{ what: "non-ASCII", text: "# Café naïve — 日本語 🚀\n\nÄÖÜ ß\n" },
	{ what: "CRLF line ends", text: "---\r\ntitle: x\r\n---\r\nbody\r\n" },
	{ what: "no final newline", text: "last line" },
	{ what: "a byte-order mark", text: "\uFEFFwith BOM\n" },
	{ what: "lone CR and trailing spaces", text: "a\rb  \n  \n" },
	{ what: "empty", text: "" },
];
