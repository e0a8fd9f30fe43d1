import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileReplacingSync } from "./atomic-write";
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

/** Written whole (none: the file goes), at once: Obsidian may quit the moment after a rename. */
export function writePendingRenames(stateDir: string, moves: readonly { from: string; to: string }[]): void {
	const path = join(stateDir, FILE);
	if (moves.length === 0) return rmSync(path, { force: true });
	mkdirSync(stateDir, { recursive: true });
	writeFileReplacingSync(path, JSON.stringify(moves));
}
