import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The physical floor of a first sync, run as a process of its own (the CLI's baseline in
 * `npm run bench`): list every `.jsonl` under a projects tree, read each file and `JSON.parse`
 * every line, nothing else, on one thread. Prints the number of records parsed. Aider's
 * `.aider.chat.history.md` is Markdown: it is split into its messages the way Aider reads it back.
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
	// Aider's history is Markdown, not JSON: its parse is the split into messages that Aider's own
	// reader makes (`split_chat_history_markdown`: `#### ` lines the person's, `> ` lines output,
	// `# ` lines skipped, the rest the model's), every line decoded, every message joined.
	const markdown = rel.endsWith(".aider.chat.history.md");
	if (!rel.endsWith(".jsonl") && !markdown) continue;
	const path = join(root, rel);
	if (markdown) {
		records += splitMessages(readFileSync(path)).length;
		continue;
	}
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

/** Aider's split of its chat history into messages (see above), on bytes cut into lines. */
function splitMessages(bytes) {
	const messages = [];
	let role;
	let parts = [];
	const flush = () => {
		if (role !== undefined && parts.length > 0) {
			const content = parts.join("");
			if (content.trim() !== "") messages.push({ role, content });
		}
		parts = [];
	};
	for (let start = 0; start < bytes.length; ) {
		let end = bytes.indexOf(NEWLINE, start);
		if (end < 0) end = bytes.length;
		const line = bytes.toString("utf8", start, end);
		start = end + 1;
		if (line.startsWith("# ")) continue;
		const next = line.startsWith("> ") ? "tool" : line.startsWith("#### ") ? "user" : "assistant";
		if (next !== role) flush();
		role = next;
		parts.push(next === "tool" ? line.slice(2) : next === "user" ? line.slice(5) : line, "\n");
	}
	flush();
	return messages;
}
