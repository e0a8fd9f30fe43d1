import { addUnique, countUnknown } from "./model-building";
import type { SessionModel } from "./session-model";
import { grouped } from "../text/grouped-number";

/**
 * The longest folder a transcript may give as its session's (Linux's `PATH_MAX`; macOS allows
 * 1,024, Windows 260 unless long paths are on). A longer one names no folder any system opens,
 * and taken as the project's path it went everywhere a path goes: a 10 MB opencode `directory`
 * was the project's path.
 */
export const MAX_FOLDER_CHARS = 4096;

/** How a fold counts a folder it did not take for its length (see `foldersPassedOver`). */
const TOO_LONG = "folder longer than a path";

/**
 * A session's folder as its transcript gives it (Claude Code's and Codex's `cwd`, Copilot CLI's
 * `context.cwd`, Gemini CLI's directories and `.project_root`, opencode's `directory`): the first
 * is the session's project. The same rule for every agent: a non-empty string no longer than any path.
 */
export function noteFolder(model: SessionModel, folder: unknown): void {
	if (typeof folder !== "string" || folder === "") return;
	if (folder.length > MAX_FOLDER_CHARS) return countUnknown(model, TOO_LONG);
	if (model.cwd === undefined) model.cwd = folder;
	addUnique(model, "cwds", folder);
}

/** Whether a fold did not take a session's folder for its length (counted among its unknown records). */
export function folderPassedOver(model: SessionModel): boolean {
	return model.unknownTypes[TOO_LONG] !== undefined;
}

/** The transcripts read whose folder was not taken for its length: named among what a sync passed over, as nothing else shows it. */
export function foldersPassedOver(read: readonly { file: { path: string }; model: SessionModel }[]): { path: string; reason: string }[] {
	// A loop, not `flatMap`: that made an empty list for each of the tens of thousands read.
	const passed: { path: string; reason: string }[] = [];
	for (const { file, model } of read) if (folderPassedOver(model)) passed.push({ path: file.path, reason: `its folder (cwd) is longer than any path (over ${grouped(MAX_FOLDER_CHARS)} characters): not taken as the session's project` });
	return passed;
}
