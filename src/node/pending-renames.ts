import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, writeFileReplacingSync } from "./atomic-write";
import { ConfinedPathError, readPlainFileIfThere } from "./confined-path";

/**
 * The renames the plugin heard and no sync has taken yet, in the state folder: Obsidian may quit
 * before its next sync, and an index or packet renamed then had a second one written at its old
 * place after the restart (session notes are found by their `session_id`; those are not).
 */
const FILE = "renames.json";

export async function readPendingRenames(stateDir: string): Promise<{ from: string; to: string }[]> {
	if (!insidePluginFolder(stateDir)) return [];
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
	if (!insidePluginFolder(stateDir)) throw new ConfinedPathError(`The state folder ${stateDir} leads out of the plugin's folder; the renames waiting were not kept there`);
	const path = join(stateDir, FILE);
	if (moves.length === 0) return rmSync(path, { force: true });
	mkdirSync(stateDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
	writeFileReplacingSync(path, JSON.stringify(moves), PRIVATE_FILE_MODE);
}

/**
 * Whether the state folder, links followed, is inside the plugin's folder (see `confineStateFolder`,
 * which a sync checks; this file is written at once, on a rename event, so the check is blocking).
 * Not made yet, it will be made there.
 */
function insidePluginFolder(stateDir: string): boolean {
	try {
		const plugin = realpathSync.native(dirname(stateDir));
		const real = realpathSync.native(stateDir);
		return real === plugin || real.startsWith(plugin + sep);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT";
	}
}
