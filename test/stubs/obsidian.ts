/**
 * A small stand-in for the `obsidian` package, which ships types only. Tests alias `obsidian` to
 * this file (vitest.config.ts). It copies the behaviour the plugin relies on, and nothing more;
 * UI that cannot exist outside the app records what it was asked to show.
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

export abstract class Plugin extends Component {
	readonly commands: Command[] = [];
	constructor(
		public app: unknown,
		public manifest: PluginManifest,
	) {
		super();
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
