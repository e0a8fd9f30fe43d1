import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeFileReplacing } from "./atomic-write";
import { readPlainFileIfThere } from "./confined-path";

/**
 * The renames the plugin heard and no sync has taken yet, in the state folder: Obsidian may quit
 * before its next sync, and an index or packet renamed then had a second one written at its old
 * place after the restart (session notes are found by their `session_id`; those are not).
 */
const FILE = "renames.json";

export async function readPendingRenames(stateDir: string): Promise<{ from: string; to: string }[]> {
	const text = await readPlainFileIfThere(join(stateDir, FILE)).catch(() => null);
	if (text === null) return [];
	try {
		const value: unknown = JSON.parse(text);
		if (!Array.isArray(value)) return [];
		return value.filter((m): m is { from: string; to: string } => typeof m === "object" && m !== null && typeof (m as { from?: unknown }).from === "string" && typeof (m as { to?: unknown }).to === "string").map(({ from, to }) => ({ from, to }));
	} catch {
		return [];
	}
}

/** Written whole (none: the file goes). */
export async function writePendingRenames(stateDir: string, moves: readonly { from: string; to: string }[]): Promise<void> {
	const path = join(stateDir, FILE);
	if (moves.length === 0) return rm(path, { force: true });
	await mkdir(stateDir, { recursive: true });
	await writeFileReplacing(path, JSON.stringify(moves));
}
