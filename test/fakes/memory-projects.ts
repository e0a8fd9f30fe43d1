import type { ProjectFiles } from "../../src/core/ports";

/** Projects' CLAUDE.md files in memory, by `<projectPath>/<fileName>`. */
export class MemoryProjects implements ProjectFiles {
	readonly files = new Map<string, string>();
	async read(projectPath: string, fileName: string): Promise<string | null> {
		return this.files.get(`${projectPath}/${fileName}`) ?? null;
	}
	async write(projectPath: string, fileName: string, text: string, expected: string | null): Promise<boolean> {
		if ((this.files.get(`${projectPath}/${fileName}`) ?? null) !== expected) return false;
		this.files.set(`${projectPath}/${fileName}`, text);
		return true;
	}
}
