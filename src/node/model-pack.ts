import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from "./atomic-write";
import { openPlainFile } from "./confined-path";
import { join } from "node:path";
import { currentThreadId } from "./thread-id";
import { utf8Parts } from "./utf8-parts";
import type { PackedAt } from "../core/ingest/fold-whole";

/**
 * Stored models appended to a pack, one file per thread and run, instead of a file each: a first
 * sync of a thousand sessions creates a few files, not a thousand (measured on the bench tree:
 * creating the model files was most of the workers' system time, and on ext4 a file is dearer to
 * create the more files were deleted nearby lately). A pack is only ever appended to, by the thread
 * that made it; what is in it is found by the offsets the store keeps (`StateFolder`).
 */
let current: { folder: string; name: string; fd: number; size: number } | undefined;
let made = 0;

/** Appends `text` (one stored model, JSON, or its parts in order) to this thread's pack in `folder`; where it went. */
export function appendToPack(folder: string, text: string | readonly string[]): PackedAt {
	if (current?.folder !== folder) {
		if (current) closeSync(current.fd);
		mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
		const name = `pack-${process.pid}-${currentThreadId()}-${Date.now().toString(36)}${(++made).toString(36)}.jsonl`;
		current = { folder, name, fd: openSync(join(folder, name), "a", PRIVATE_FILE_MODE), size: 0 };
	}
	const pack = current;
	const bytes = utf8Parts(typeof text === "string" ? [text, "\n"] : [...text, "\n"]);
	try {
		for (let done = 0; done < bytes.length; ) done += writeSync(pack.fd, bytes, done, bytes.length - done);
	} catch (error) {
		// Half a line may be in it now: the next model starts a pack of its own.
		closeSync(pack.fd);
		current = undefined;
		throw error;
	}
	const at = { pack: pack.name, offset: pack.size, length: bytes.length - 1 };
	pack.size += bytes.length;
	return at;
}

/** A pack about to be removed: this thread appends no more to it. */
export function leavePack(name: string): void {
	if (current?.name !== name) return;
	closeSync(current.fd);
	current = undefined;
}

/** The text at `at` in a pack of `folder`. */
export async function readPacked(folder: string, at: PackedAt): Promise<string> {
	if (!isPackName(at.pack) || !Number.isSafeInteger(at.offset) || !Number.isSafeInteger(at.length) || at.offset < 0 || at.length < 0) throw new Error("not a pack location");
	const file = await openPlainFile(join(folder, at.pack));
	try {
		const bytes = Buffer.alloc(at.length);
		const { bytesRead } = await file.read(bytes, 0, at.length, at.offset);
		if (bytesRead !== at.length) throw new Error(`${at.pack} is shorter than its index says`);
		return bytes.toString("utf8");
	} finally {
		await file.close();
	}
}

/** What packs are named (a name from elsewhere never becomes a path). */
export function isPackName(name: unknown): name is string {
	return typeof name === "string" && /^pack-\d+-\d+-[0-9a-z]+\.jsonl$/.test(name);
}

/** The process that made a pack (see `isPackName`). */
export function packPid(name: string): number {
	return Number(/^pack-(\d+)-/.exec(name)?.[1]);
}

/** Whether a pack was made by this process (it may still be appended to). */
export function isOwnPack(name: string): boolean {
	return name.startsWith(`pack-${process.pid}-`);
}
