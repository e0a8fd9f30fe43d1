/** The I/O the core needs, implemented by the adapters in node/ (CLI) and obsidian/ (plugin). */

/** Notes inside the vault, by vault-relative path with `/` separators. */
export interface NoteStore {
	/** The note's text, or null when there is none. */
	read(path: string): Promise<string | null>;
	/** Creates or replaces the note (and its folders). */
	write(path: string, text: string): Promise<void>;
}

/** Files outside the vault that the user enabled: a project's CLAUDE.md. */
export interface ProjectFiles {
	read(projectPath: string, fileName: string): Promise<string | null>;
	write(projectPath: string, fileName: string, text: string): Promise<void>;
}
