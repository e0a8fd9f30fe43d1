import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/** A corpus's main session transcripts, relative to it and sorted: `.jsonl` files, not `agent-*.jsonl`, not under a `subagents/` folder. */
export function sessionFiles(corpus: string): string[] {
	return (readdirSync(corpus, { recursive: true }) as string[])
		.map((f) => f.split("\\").join("/"))
		.filter((f) => f.endsWith(".jsonl") && !basename(f).startsWith("agent-") && !f.includes("/subagents/") && statSync(join(corpus, f)).isFile())
		.sort();
}
