import { access, constants, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { ProjectFiles } from "../core/ports";

/** CLAUDE.md and CLAUDE.local.md of enabled projects, written atomically with their mode kept. */
export class ProjectFolderFiles implements ProjectFiles {
	async read(projectPath: string, fileName: string): Promise<string | null> {
		try {
			return await readFile(join(projectPath, fileName), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	async write(projectPath: string, fileName: string, text: string): Promise<void> {
		const folder = await stat(projectPath).catch(() => undefined);
		if (!folder?.isDirectory()) throw new Error(`project folder ${projectPath} does not exist`);
		const target = join(projectPath, fileName);
		// A rename would replace a read-only file; the user made it read-only for a reason.
		const existing = await stat(target).catch(() => undefined);
		const writable = existing === undefined || ((existing.mode & 0o222) !== 0 && (await access(target, constants.W_OK).then(() => true, () => false)));
		if (!writable) throw new Error(`${target} is read-only`);
		// write-file-atomic keeps the existing file's mode and owner.
		await writeFileAtomic(target, text, { encoding: "utf8" });
	}
}
