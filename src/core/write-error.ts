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

/** The reason for a failed file operation, by its error code; other errors as their message. */
export function describeWriteError(error: unknown): string {
	const code = codeOf(error);
	// `mkdir -p` over a file says EEXIST of that file (ENOTDIR only of a folder below it).
	if (code === "EEXIST" && typeof error === "object" && error !== null && "syscall" in error && error.syscall === "mkdir") return "a file stands where a folder of the path should be (EEXIST)";
	if (code !== undefined && REASONS[code]) return REASONS[code];
	return error instanceof Error ? error.message : String(error);
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
