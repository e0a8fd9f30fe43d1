import type { MemoryFolder } from "../../src/core/ports";

/** A Claude Code memory folder as a map of file name to text, counting writes. */
export class FakeMemoryFolder implements MemoryFolder {
	readonly files = new Map<string, string>();
	writes = 0;
	constructor(readonly path = "/home/dev/.claude/projects/-home-dev-shop-api/memory") {}
	async list(): Promise<Map<string, string>> {
		// Like the folder on disk: the `.md` files directly in it.
		return new Map([...this.files].filter(([name]) => name.toLowerCase().endsWith(".md") && !name.includes("/")).sort(([a], [b]) => (a < b ? -1 : 1)));
	}
	async write(name: string, text: string, expected: string | null): Promise<boolean> {
		if ((this.files.get(name) ?? null) !== expected) return false;
		this.writes++;
		this.files.set(name, text);
		return true;
	}
	async remove(name: string, expected: string): Promise<boolean> {
		if (this.files.get(name) !== expected) return false;
		this.files.delete(name);
		return true;
	}
}
