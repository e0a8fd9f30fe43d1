/**
 * A small stand-in for the `obsidian` package, which ships types only. Tests alias `obsidian` to
 * this file (vitest.config.mts). It copies the behaviour the plugin relies on, measured against
 * the real app where it matters (create throws on an existing file), and nothing more.
 */

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
	description: string;
	author: string;
	isDesktopOnly?: boolean;
	dir?: string;
}

export interface Command {
	id: string;
	name: string;
	callback?: () => unknown;
	hotkeys?: unknown[];
}

export class Component {
	private readonly cleanups: (() => unknown)[] = [];
	private loaded = false;
	load(): void {
		if (this.loaded) return;
		this.loaded = true;
		this.onload();
	}
	onload(): void {}
	unload(): void {
		if (!this.loaded) return;
		this.loaded = false;
		this.onunload();
		while (this.cleanups.length > 0) this.cleanups.pop()?.();
	}
	onunload(): void {}
	register(cb: () => unknown): void {
		this.cleanups.push(cb);
	}
}

export class Notice {
	static readonly shown: string[] = [];
	constructor(message: string | DocumentFragment, _duration?: number) {
		Notice.shown.push(typeof message === "string" ? message : (message.textContent ?? ""));
	}
}

export abstract class TAbstractFile {
	constructor(
		public path: string,
		public parent: TFolder | null,
	) {}
	get name(): string {
		return this.path.split("/").pop() ?? this.path;
	}
}

export class TFile extends TAbstractFile {
	get basename(): string {
		return this.name.replace(/\.[^.]*$/, "");
	}
	get extension(): string {
		return /\.([^.]*)$/.exec(this.name)?.[1] ?? "";
	}
}

export class TFolder extends TAbstractFile {
	children: TAbstractFile[] = [];
}

/** The desktop adapter: the vault is a folder on disk. */
export class FileSystemAdapter {
	constructor(private readonly basePath: string) {}
	getBasePath(): string {
		return this.basePath;
	}
}

/** An in-memory vault with the semantics of the calls the plugin makes. */
export class Vault {
	adapter: FileSystemAdapter | object = {};
	private readonly files = new Map<string, { file: TFile; data: string }>();
	private readonly folders = new Map<string, TFolder>([["", new TFolder("", null)]]);

	getFileByPath(path: string): TFile | null {
		return this.files.get(path)?.file ?? null;
	}
	getFolderByPath(path: string): TFolder | null {
		return this.folders.get(path) ?? null;
	}
	async read(file: TFile): Promise<string> {
		const entry = this.files.get(file.path);
		if (!entry) throw new Error(`File not found: ${file.path}`);
		return entry.data;
	}
	async create(path: string, data: string): Promise<TFile> {
		if (this.files.has(path) || this.folders.has(path)) throw new Error("File already exists.");
		const parent = this.folders.get(path.split("/").slice(0, -1).join("/"));
		if (!parent) throw new Error(`Folder does not exist: ${path}`);
		const file = new TFile(path, parent);
		parent.children.push(file);
		this.files.set(path, { file, data });
		return file;
	}
	async createFolder(path: string): Promise<TFolder> {
		if (this.folders.has(path) || this.files.has(path)) throw new Error("Folder already exists.");
		const parent = this.folders.get(path.split("/").slice(0, -1).join("/")) ?? null;
		const folder = new TFolder(path, parent);
		parent?.children.push(folder);
		this.folders.set(path, folder);
		return folder;
	}
	/** Like the app: the callback is synchronous and its result replaces the file's text. */
	async process(file: TFile, fn: (data: string) => string): Promise<string> {
		const entry = this.files.get(file.path);
		if (!entry) throw new Error(`File not found: ${file.path}`);
		entry.data = fn(entry.data);
		return entry.data;
	}
	getFiles(): TFile[] {
		return [...this.files.values()].map((e) => e.file);
	}

	/** Moves the file to the system trash or the vault's `.trash`; here it is simply gone. */
	async trash(file: TAbstractFile, _system: boolean): Promise<void> {
		this.files.delete(file.path);
		if (file.parent) file.parent.children = file.parent.children.filter((c) => c !== file);
	}
}

export class FileManager {
	constructor(private readonly vault: Vault) {}
	/** Follows the user's "deleted files" setting; the stub's vault just drops it. */
	async trashFile(file: TAbstractFile): Promise<void> {
		await this.vault.trash(file, true);
	}
}

export interface App {
	vault: Vault;
	fileManager: FileManager;
}

export abstract class Plugin extends Component {
	readonly commands: Command[] = [];
	/** What `saveData` stored; `loadData` returns it. */
	data: unknown = null;
	constructor(
		public app: App,
		public manifest: PluginManifest,
	) {
		super();
	}
	async loadData(): Promise<unknown> {
		return this.data;
	}
	async saveData(data: unknown): Promise<void> {
		this.data = data;
	}
	addCommand(command: Command): Command {
		this.commands.push(command);
		return command;
	}
}

/** Obsidian's rules: forward slashes, no duplicate or edge slashes, NBSP to space, NFC. */
export function normalizePath(path: string): string {
	const cleaned = path
		.replace(/[\\/]+/g, "/")
		.replace(/\u00a0|\u202f/g, " ")
		.replace(/^\/+|\/+$/g, "");
	return (cleaned === "" ? "/" : cleaned).normalize("NFC");
}
