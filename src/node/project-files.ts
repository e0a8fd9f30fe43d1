import { isDirectory } from "./absent-folder";
import { access, constants, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import type { ProjectFiles } from "../core/ports";
import { removeStaleTemps, replaceKeepingAppends, writeDurably } from "./atomic-write";
import { ConfinedPathError, confinedFile, INSTRUCTION_FILE_MAX_BYTES, readPlainUtf8IfThere, utf8Text } from "./confined-path";

/** CLAUDE.md (or CLAUDE.local.md, AGENTS.md, GEMINI.md) of enabled projects, written atomically with their mode kept. */
export class ProjectFolderFiles implements ProjectFiles {
	/**
	 * Whether each project's folder is there, asked once for the reads of a sync (an instance is a
	 * sync's): each of four instruction files asked again, and 100,000 enabled projects not there
	 * were 500,000 stats. A write asks afresh.
	 */
	private readonly folders = new Map<string, Promise<boolean>>();

	folderExists(path: string): Promise<boolean> {
		return isDirectory(path);
	}

	async within(path: string, root: string): Promise<boolean> {
		const [real, realRoot] = await Promise.all([realpath(path).catch(() => undefined), realpath(root).catch(() => undefined)]);
		if (real === undefined || realRoot === undefined) return false;
		const rel = relative(realRoot, real);
		return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
	}

	/** Refuses (throws) a file that leads outside the project or is no plain file: see `confinedFile`. */
	async read(projectPath: string, fileName: string): Promise<string | null> {
		// A project folder that is gone has no file (writing says so).
		if (!(await this.folderThere(projectPath))) return null;
		const real = await instructionFile(projectPath, fileName);
		return real === undefined ? null : readPlainUtf8IfThere(real, INSTRUCTION_FILE_MAX_BYTES);
	}

	async readOnly(projectPath: string, fileName: string): Promise<boolean> {
		const real = await this.realPath(projectPath, fileName).catch(() => undefined);
		return real !== undefined && (await isReadOnly(real));
	}

	async realPath(projectPath: string, fileName: string): Promise<string | undefined> {
		if (!(await this.folderThere(projectPath))) return undefined;
		return instructionFile(projectPath, fileName);
	}

	private folderThere(projectPath: string): Promise<boolean> {
		let there = this.folders.get(projectPath);
		if (there === undefined) this.folders.set(projectPath, (there = isDirectory(projectPath)));
		return there;
	}

	async write(projectPath: string, fileName: string, text: string, expected: string | null): Promise<boolean> {
		const folder = await stat(projectPath).catch(() => undefined);
		if (!folder?.isDirectory()) throw new Error(`the project folder ${projectPath} does not exist`);
		// The real file, checked to be inside the project: a link is written through, never replaced or followed out.
		const target = (await instructionFile(projectPath, fileName)) ?? join(projectPath, fileName);
		// A rename would replace a read-only file; the user made it read-only for a reason.
		const existing = await stat(target).catch(() => undefined);
		if (existing !== undefined && (await isReadOnly(target))) throw new Error(`${target} is read-only`);
		try {
			// What a killed sync left beside it goes (our temporary names carry the writer's pid).
			await removeStaleTemps(target);
			// Compared as late as possible (an edit saved since our read is never overwritten), and lines
			// another program appends meanwhile are carried into the new file (`replaceKeepingAppends`).
			// Written to a temporary file with the existing file's mode and owner, then renamed.
			const keep = existing && { mode: existing.mode & 0o7777, owner: { uid: existing.uid, gid: existing.gid } };
			return await replaceKeepingAppends(target, expected, (bytes) => utf8Text(target, bytes), (unchanged) => writeDurably(target, text, keep, unchanged), text);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw new Error(`cannot write in ${projectPath}: the folder is read-only (${code})`);
			throw error;
		}
	}
}

/** A file no write bit is set on, or that this user may not write (root may, but the mode says no). */
async function isReadOnly(path: string): Promise<boolean> {
	const info = await stat(path).catch(() => undefined);
	return info !== undefined && ((info.mode & 0o222) === 0 || !(await access(path, constants.W_OK).then(() => true, () => false)));
}

/**
 * The real file of a project's instruction file (see `confinedFile`: inside the project, a plain
 * file), and a Markdown file out of git's folder: a repository can ship `AGENTS.md` as a link to
 * `.git/config`, or to the vault's settings kept in it, and the block went into them.
 */
async function instructionFile(projectPath: string, fileName: string): Promise<string | undefined> {
	const real = await confinedFile(projectPath, join(projectPath, fileName), `${fileName} of ${projectPath}`);
	if (real === undefined) return undefined;
	const within = relative(await realpath(projectPath), real);
	if (!/\.md$/i.test(real) || within.split(/[\\/]/).includes(".git")) throw new ConfinedPathError(`${fileName} of ${projectPath} leads to ${real}, which is no Markdown file of the project's own; nothing was read or written`);
	return real;
}
