import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The corpus tests read the real transcripts in ../shared/corpus, which a clone elsewhere does not
 * have: said once at the start of the run, so a green run without them is not taken for one with them.
 */
export default function announceCorpus(): void {
	const corpus = join(__dirname, "..", "..", "..", "shared", "corpus");
	if (existsSync(join(corpus, "claude-transcripts"))) return;
	process.stdout.write(`\nCorpus tests skipped: no real transcripts at ${corpus} (they are read from ../shared/corpus beside the clone, never committed).\n\n`);
}
