import { dict } from "./dict";
/**
 * What a failed write means, in words a person acts on: the disk, a read-only folder, a
 * permission. Writes are whole or not at all (temporary file, then rename), so each message can
 * say that nothing was lost.
 */
const REASONS: Record<string, string> = dict({
	ENOSPC: "the disk is full (ENOSPC)",
	EDQUOT: "the disk quota is used up (EDQUOT)",
	EROFS: "the file system is read-only (EROFS)",
	EACCES: "permission denied (EACCES)",
	EPERM: "the operation is not permitted (EPERM)",
	ENAMETOOLONG: "the name is too long for the file system (ENAMETOOLONG)",
	EMFILE: "too many files are open (EMFILE)",
	EIO: "the disk reported an I/O error (EIO)",
	ELOOP: "a link there leads back to itself (ELOOP)",
	ENOTDIR: "a file stands where a folder of the path should be (ENOTDIR)",
	EFBIG: "the file is larger than this system lets a file be (EFBIG: a file size limit, `ulimit -f`)",
});

/**
 * What the user is told of an error of the JavaScript engine: a bug of ours on input it did not
 * foresee, whose own words ("Cannot read properties of null (reading 'id')") are V8's and tell
 * the person nothing to act on (one reached the sync's output; attack round 48a, by fuzzing).
 */
export const UNEXPECTED_ERROR = "an unexpected error in AI Conversation Memory (a bug: please report it)";

/** The reason for a failed file operation, by its error code; the engine's errors as `UNEXPECTED_ERROR`; other errors as their message. */
export function describeWriteError(error: unknown): string {
	const code = codeOf(error);
	// `mkdir -p` over a file says EEXIST of that file (ENOTDIR only of a folder below it).
	if (code === "EEXIST" && typeof error === "object" && error !== null && "syscall" in error && error.syscall === "mkdir") return "a file stands where a folder of the path should be (EEXIST)";
	if (code !== undefined && REASONS[code]) return REASONS[code];
	if (isEngineError(error)) return UNEXPECTED_ERROR;
	return error instanceof Error ? error.message : String(error);
}

/** A TypeError, RangeError or ReferenceError without a code: thrown by the engine, not by our own sentences (those are plain `Error`s). */
export function isEngineError(error: unknown): boolean {
	return (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError) && codeOf(error) === undefined;
}

/** Whether the error is one of the file system's (a full disk, a read-only folder): worth a sentence, not a stack. */
export function isFileSystemError(error: unknown): boolean {
	const code = codeOf(error);
	return code !== undefined && code in REASONS;
}

function codeOf(error: unknown): string | undefined {
	const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
	return typeof code === "string" ? code : undefined;
}
