import { isUtf8 } from "node:buffer";
import { access, constants, stat } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { ProjectFiles } from "../core/ports";
import { replaceKeepingAppends } from "./atomic-write";
import { confinedFile, readPlainBytes } from "./confined-path";

/** CLAUDE.md (or CLAUDE.local.md, AGENTS.md, GEMINI.md) of enabled projects, written atomically with their mode kept. */
export class ProjectFolderFiles implements ProjectFiles {
	/** Refuses (throws) a file that leads outside the project or is no plain file: see `confinedFile`. */
	async read(projectPath: string, fileName: string): Promise<string | null> {
		// A project folder that is gone has no file (writing says so).
		if (!(await stat(projectPath).then((s) => s.isDirectory(), () => false))) return null;
		const real = await confinedFile(projectPath, join(projectPath, fileName), `${fileName} of ${projectPath}`);
		return real === undefined ? null : readIfThere(real);
	}

	async realPath(projectPath: string, fileName: string): Promise<string | undefined> {
		if (!(await stat(projectPath).then((s) => s.isDirectory(), () => false))) return undefined;
		return confinedFile(projectPath, join(projectPath, fileName), `${fileName} of ${projectPath}`);
	}

	async write(projectPath: string, fileName: string, text: string, expected: string | null): Promise<boolean> {
		const folder = await stat(projectPath).catch(() => undefined);
		if (!folder?.isDirectory()) throw new Error(`the project folder ${projectPath} does not exist`);
		// The real file, checked to be inside the project: a link is written through, never replaced or followed out.
		const target = (await confinedFile(projectPath, join(projectPath, fileName), `${fileName} of ${projectPath}`)) ?? join(projectPath, fileName);
		// A rename would replace a read-only file; the user made it read-only for a reason.
		const existing = await stat(target).catch(() => undefined);
		const writable = existing === undefined || ((existing.mode & 0o222) !== 0 && (await access(target, constants.W_OK).then(() => true, () => false)));
		if (!writable) throw new Error(`${target} is read-only`);
		try {
			// Compared as late as possible (an edit saved since our read is never overwritten), and lines
			// another program appends meanwhile are carried into the new file (`replaceKeepingAppends`).
			// write-file-atomic writes a temporary file, keeps the existing file's mode and owner, renames.
			return await replaceKeepingAppends(target, expected, (bytes) => utf8Text(target, bytes), () => writeFileAtomic(target, text, { encoding: "utf8" }), text);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw new Error(`cannot write in ${projectPath}: the folder is read-only (${code})`);
			throw error;
		}
	}
}

/**
 * The file's text, refused when it is not UTF-8 (Windows PowerShell 5 writes UTF-16LE with a BOM;
 * Latin-1 and CESU-8 are seen too): decoding would put U+FFFD outside the markers, and writing it
 * back would change bytes that are not ours.
 */
async function readIfThere(path: string): Promise<string | null> {
	try {
		return utf8Text(path, await readPlainBytes(path));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

function utf8Text(path: string, bytes: Buffer): string {
	if (!isUtf8(bytes)) throw new Error(`${path} is not UTF-8 (${encodingGuess(bytes)}); it is left as it is: save it as UTF-8 to get the block`);
	return bytes.toString("utf8");
}

function encodingGuess(bytes: Buffer): string {
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16LE, by its byte order mark";
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16BE, by its byte order mark";
	return "perhaps Latin-1 or CESU-8";
}
