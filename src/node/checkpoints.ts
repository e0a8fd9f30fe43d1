import { isWithin } from "../core/projects/project-identity";
import { lstat, readdir, unlink } from "node:fs/promises";
import { openPlainFile, readPlainFile } from "./confined-path";
import { dirname, join } from "node:path";
import { PRIVATE_FILE_MODE, writeFileReplacing } from "./atomic-write";
import type { Checkpoint } from "../core/context/lazy-context";
import { checkpointText } from "../core/hooks/checkpoint-text";
import { splitCompleteLines } from "../core/transcript/jsonl-lines";
import { foldLine, hash53 } from "../core/transcript/fold";
import { createSession } from "../core/transcript/session-model";
import { assistantTextsOf, promptsOf } from "../core/transcript/session-queries";

/**
 * Resume points the PreCompact hook records, one small file per session in
 * `<state dir>/checkpoints/<session>.json` holding a `Checkpoint`. The next sync merges them into
 * `SyncState.checkpoints` (the lazy facade's "Last checkpoint") and removes the files it merged.
 * A hook never touches the sync state itself, so it cannot race a running sync.
 */

function checkpointsDir(stateDir: string): string {
	return join(stateDir, "checkpoints");
}

/** The file of one session; ids that are not plain file names are hashed. */
export function checkpointPath(stateDir: string, sessionId: string): string {
	const name = /^[A-Za-z0-9_-]{1,100}$/.test(sessionId) ? sessionId : `s-${hash53(sessionId).toString(36)}`;
	return join(checkpointsDir(stateDir), `${name}.json`);
}

/** What a hook stored: the session id rides along, so hashed names map back. */
interface CheckpointFile extends Checkpoint {
	sessionId: string;
}

export async function writeCheckpoint(stateDir: string, sessionId: string, checkpoint: Checkpoint): Promise<string> {
	const path = checkpointPath(stateDir, sessionId);
	const data: CheckpointFile = { sessionId, ...(checkpoint.at === undefined ? {} : { at: checkpoint.at }), text: checkpoint.text };
	await writeFileReplacing(path, `${JSON.stringify(data)}\n`, PRIVATE_FILE_MODE);
	return path;
}

/** Checkpoints waiting to be merged, by session, and the files' texts as read (to remove them once merged). */
export async function pendingCheckpoints(stateDir: string): Promise<{ checkpoints: Record<string, Checkpoint>; files: Map<string, string> }> {
	const dir = checkpointsDir(stateDir);
	const checkpoints: Record<string, Checkpoint> = {};
	const files = new Map<string, string>();
	const names = await readdir(dir).catch(() => [] as string[]);
	for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
		const path = join(dir, name);
		const text = await readPlainFile(path).catch(() => undefined);
		if (text === undefined) continue;
		files.set(path, text);
		const data = parse(text);
		if (data) checkpoints[data.sessionId] = data.at === undefined ? { text: data.text } : { at: data.at, text: data.text };
	}
	return { checkpoints, files };
}

/** Removes merged files that still hold what was read (a newer checkpoint written meanwhile stays for the next sync). */
export async function removeMergedCheckpoints(files: ReadonlyMap<string, string>): Promise<void> {
	for (const [path, text] of files) {
		const now = await readPlainFile(path).catch(() => undefined);
		if (now === text) await unlink(path).catch(() => undefined);
	}
}

function parse(text: string): CheckpointFile | undefined {
	try {
		const o = JSON.parse(text) as Partial<CheckpointFile> | null;
		if (!o || typeof o.sessionId !== "string" || typeof o.text !== "string" || o.text.trim() === "") return undefined;
		return { sessionId: o.sessionId, text: o.text, ...(typeof o.at === "string" ? { at: o.at } : {}) };
	} catch {
		return undefined;
	}
}

/** How much of a transcript's end is read for a checkpoint; more only when that holds no prompt. */
const TAIL_BYTES = [1 << 20, 8 << 20];

/**
 * A checkpoint from the end of a transcript: the last typed prompt and the last assistant text
 * of the session itself (sub-agents left out), redacted with `redact`. Undefined when the end of
 * the file holds neither, or when the file or its project folder is a link: read where Claude
 * Code writes it, as the sync reads transcripts (a linked one put a file from outside Claude
 * Code's folder into the checkpoint, and from there into CLAUDE.md and the prompt hook's output).
 */
export async function checkpointFromTranscript(path: string, at: string, redact: (text: string) => string = (t) => t, cwd?: string): Promise<Checkpoint | undefined> {
	if (await throughALink(path)) return undefined;
	const handle = await openPlainFile(path);
	try {
		const size = (await handle.stat()).size;
		let found: Checkpoint | undefined;
		for (const want of TAIL_BYTES) {
			const length = Math.min(size, want);
			const buffer = Buffer.alloc(length);
			await handle.read(buffer, 0, length, size - length);
			// A read from the middle starts inside a line: skip to the first whole one.
			const first = length < size ? buffer.indexOf(0x0a) + 1 : 0;
			const bytes = buffer.subarray(first);
			// The last line may lack its newline (Claude Code writes whole lines, but be safe).
			const whole = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? Buffer.concat([bytes, Buffer.from("\n")]) : bytes;
			const model = createSession(path);
			for (const line of splitCompleteLines(whole, 1).lines) foldLine(model, line);
			// A transcript of another folder is not this session's (the hook's input named it): no checkpoint of it here.
			if (cwd !== undefined && ![model.cwd, ...model.cwds].some((at) => at !== undefined && (isWithin(at, cwd) || isWithin(cwd, at)))) return undefined;
			const prompt = promptsOf(model).filter((p) => p.kind === "prompt").at(-1)?.text;
			const reply = assistantTextsOf(model).at(-1)?.text;
			const text = checkpointText(prompt === undefined ? undefined : redact(prompt), reply === undefined ? undefined : redact(reply));
			found = text === "" ? undefined : { at, text };
			if (prompt !== undefined || length === size) break;
		}
		return found;
	} finally {
		await handle.close();
	}
}

/** Whether the transcript or the folder holding it is a symbolic link (one that is not there is left to the open to say). */
async function throughALink(path: string): Promise<boolean> {
	const [file, folder] = await Promise.all([lstat(path).catch(() => undefined), lstat(dirname(path)).catch(() => undefined)]);
	return file?.isSymbolicLink() === true || folder?.isSymbolicLink() === true;
}
