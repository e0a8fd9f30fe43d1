import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
