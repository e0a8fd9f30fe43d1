import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The physical floor of a first sync, run as a process of its own (the CLI's baseline in
 * `npm run bench`): list every `.jsonl` under a projects tree, read each file and `JSON.parse`
 * every line, nothing else, on one thread. Prints the number of records parsed.
 *
 * Done the fastest way found (2 cores, Node 20, the bench's 327 MiB tree): blocking reads, and
 * lines cut on bytes and decoded one by one, 1.1–1.2 s. With `--whole`, each file is decoded as
 * one string and split (one non-ASCII character then makes every line of the file a two-byte
 * string, which `JSON.parse` reads more slowly), 1.9–2.1 s: printed for reference only.
 */
const [root, mode] = process.argv.slice(2);
if (!root) throw new Error("usage: node bench/read-baseline.mjs <projects dir> [--whole]");

const NEWLINE = 0x0a;
let records = 0;
let bad = 0;
const parse = (line) => {
	try {
		JSON.parse(line);
		records++;
	} catch {
		bad++;
	}
};

for (const rel of readdirSync(root, { recursive: true })) {
	if (!rel.endsWith(".jsonl")) continue;
	const path = join(root, rel);
	if (mode === "--whole") {
		for (const line of readFileSync(path, "utf8").split("\n")) if (line !== "") parse(line);
		continue;
	}
	const bytes = readFileSync(path);
	for (let start = 0; start < bytes.length; ) {
		let end = bytes.indexOf(NEWLINE, start);
		if (end < 0) end = bytes.length;
		if (end > start) parse(bytes.toString("utf8", start, end));
		start = end + 1;
	}
}
process.stdout.write(`${JSON.stringify({ records, bad })}\n`);
