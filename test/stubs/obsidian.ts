/**
 * A small stand-in for the `obsidian` package, which ships types only. Tests alias `obsidian` to
 * this file (vitest.config.mts). It copies the behaviour the plugin relies on, measured against
 * the real app where it matters (create throws on an existing file), and nothing more.
 */
import { parse as parseYaml } from "yaml";

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
	editorCallback?: (editor: Editor, ctx: { file: TFile | null }) => unknown;
	hotkeys?: Hotkey[];
}

export type Modifier = "Mod" | "Ctrl" | "Meta" | "Shift" | "Alt";

export interface Hotkey {
	modifiers: Modifier[];
	key: string;
}

/** The part of the editor commands use. */
export interface Editor {
	getSelection(): string;
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
	/** Test-only: every message shown, in order (an updated message is shown again). */
	static readonly shown: string[] = [];
	/** Test-only: notices on screen now. */
	static readonly visible = new Set<Notice>();
	/** Test-only: the text shown now. */
	message = "";
	constructor(message: string | DocumentFragment, _duration?: number) {
		this.setMessage(message);
		Notice.visible.add(this);
	}
	setMessage(message: string | DocumentFragment): this {
		this.message = typeof message === "string" ? message : (message.textContent ?? "");
		Notice.shown.push(this.message);
		return this;
	}
	hide(): void {
		Notice.visible.delete(this);
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

export interface EventRef {
	detach(): void;
}

/** Obsidian's event emitter: `on` gives a ref that `offref` (or a component's unload) detaches. */
export class Events {
	private readonly handlers = new Map<string, Set<(...data: unknown[]) => unknown>>();
	/** Any callback: the app's subclasses type theirs by event name (`file-open` gives a file). */
	on(name: string, callback: (...data: never[]) => unknown): EventRef {
		const handler = callback as (...data: unknown[]) => unknown;
		const set = this.handlers.get(name) ?? new Set();
		set.add(handler);
		this.handlers.set(name, set);
		return { detach: () => set.delete(handler) };
	}
	offref(ref: EventRef): void {
		ref.detach();
	}
	trigger(name: string, ...data: unknown[]): void {
		for (const cb of this.handlers.get(name) ?? []) cb(...data);
	}
	/** Test-only: how many handlers are attached, to see that unloading detached them. */
	listenerCount(name?: string): number {
		return name === undefined ? [...this.handlers.values()].reduce((n, s) => n + s.size, 0) : (this.handlers.get(name)?.size ?? 0);
	}
}

/** An in-memory vault with the semantics of the calls the plugin makes; like the app's, it emits `rename` and `delete`. */
export class Vault extends Events {
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
	async cachedRead(file: TFile): Promise<string> {
		return this.read(file);
	}
	getAbstractFileByPath(path: string): TAbstractFile | null {
		return this.files.get(path)?.file ?? this.folders.get(path) ?? null;
	}
	/** Like the app: the target folder must exist, the target must not. */
	async rename(file: TAbstractFile, newPath: string): Promise<void> {
		const entry = this.files.get(file.path);
		if (!entry) throw new Error(`File not found: ${file.path}`);
		if (this.files.has(newPath) || this.folders.has(newPath)) throw new Error("Destination file already exists!");
		const parent = this.folders.get(newPath.split("/").slice(0, -1).join("/"));
		if (!parent) throw new Error(`Folder does not exist: ${newPath}`);
		const oldPath = file.path;
		this.files.delete(file.path);
		if (file.parent) file.parent.children = file.parent.children.filter((c) => c !== file);
		file.path = newPath;
		file.parent = parent;
		parent.children.push(file);
		this.files.set(newPath, entry);
		this.trigger("rename", file, oldPath);
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((f) => f.extension === "md");
	}
	/** Test-only: a note's text without awaiting, as the metadata cache sees it. */
	cachedText(path: string): string | undefined {
		return this.files.get(path)?.data;
	}

	/**
	 * Moves the file or folder to the system trash or the vault's `.trash`; here it is simply gone.
	 * Like the app, it emits `delete`: for a folder, one event for the folder alone.
	 */
	async trash(file: TAbstractFile, _system: boolean): Promise<void> {
		const below = (path: string) => path.startsWith(`${file.path}/`);
		this.files.delete(file.path);
		if (file instanceof TFolder) {
			for (const path of [...this.files.keys()]) if (below(path)) this.files.delete(path);
			for (const path of [...this.folders.keys()]) if (path === file.path || below(path)) this.folders.delete(path);
		}
		if (file.parent) file.parent.children = file.parent.children.filter((c) => c !== file);
		this.trigger("delete", file);
	}

	/** Test-only: a file that was gone when the app started (deleted while it was closed): its index lacks it, and no event told of it. */
	goneWhileClosed(file: TFile): void {
		this.files.delete(file.path);
		if (file.parent) file.parent.children = file.parent.children.filter((c) => c !== file);
	}
}

export class FileManager {
	constructor(private readonly vault: Vault) {}
	/** Moves (and renames) a file, creating nothing else; the app would also update links to it. */
	async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
		await this.vault.rename(file, newPath);
	}
	/** Follows the user's "deleted files" setting; the stub's vault just drops it. */
	async trashFile(file: TAbstractFile): Promise<void> {
		await this.vault.trash(file, true);
	}
}

/** Frontmatter of a note, read from its text when asked (the app keeps it cached). */
export class MetadataCache {
	constructor(private readonly vault: Vault) {}
	getFileCache(file: TFile): { frontmatter?: Record<string, unknown> } | null {
		const text = this.vault.cachedText(file.path);
		if (text === undefined) return null;
		const match = /^---\n([\s\S]*?)\n---/.exec(text);
		const data: unknown = match ? parseYaml(match[1] ?? "") : undefined;
		return { frontmatter: typeof data === "object" && data !== null ? (data as Record<string, unknown>) : undefined };
	}
}

export interface App {
	vault: Vault;
	fileManager: FileManager;
	metadataCache: MetadataCache;
	workspace: Workspace;
}

/** The layout: plugins defer work until it is ready. The stub is ready when a test says so. */
export class Workspace extends Events {
	layoutReady = false;
	private readonly waiting: (() => unknown)[] = [];
	/** Test-only: the views plugins registered, by type. */
	readonly viewCreators = new Map<string, (leaf: WorkspaceLeaf) => View>();
	/** Test-only: the leaves holding a view, in the order they were opened. */
	readonly leaves: WorkspaceLeaf[] = [];
	/** Test-only: the link texts opened, in order (`note.md#heading`). */
	readonly openedLinks: string[] = [];
	onLayoutReady(callback: () => unknown): void {
		if (this.layoutReady) void callback();
		else this.waiting.push(callback);
	}
	/** Test-only: the app finished loading its layout. */
	ready(): void {
		this.layoutReady = true;
		for (const cb of this.waiting.splice(0)) void cb();
	}
	/** Test-only: the file a test says is open. */
	activeFile: TFile | null = null;
	/** Test-only: files opened through leaves, in order. */
	readonly opened: TFile[] = [];
	/** Test-only: the subpath (`#heading`) each file in `opened` was opened at, "" for its top. */
	readonly openedSubpaths: string[] = [];
	getActiveFile(): TFile | null {
		return this.activeFile;
	}
	getLeaf(_newLeaf?: boolean | "tab" | "split" | "window", _direction?: "vertical" | "horizontal"): WorkspaceLeaf {
		return new WorkspaceLeaf(this);
	}
	/** A leaf in the right sidebar (always there in the stub). */
	getRightLeaf(_split: boolean): WorkspaceLeaf | null {
		return new WorkspaceLeaf(this);
	}
	getLeavesOfType(viewType: string): WorkspaceLeaf[] {
		return this.leaves.filter((l) => l.view?.getViewType() === viewType);
	}
	async revealLeaf(_leaf: WorkspaceLeaf): Promise<void> {}
	detachLeavesOfType(viewType: string): void {
		for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
	}
	/** Opens a link as the app does from a note: the path's file, at the heading or block after `#`. */
	async openLinkText(linktext: string, _sourcePath: string, _newLeaf?: boolean | "tab" | "split" | "window", _openViewState?: unknown): Promise<void> {
		this.openedLinks.push(linktext);
		const path = linktext.split("#")[0] ?? "";
		const vault = this.app?.vault;
		const file = vault?.getFileByPath(path) ?? vault?.getFileByPath(`${path}.md`) ?? null;
		if (file) {
			this.opened.push(file);
			this.openedSubpaths.push(linktext.includes("#") ? linktext.slice(linktext.indexOf("#")) : "");
			this.activeFile = file;
		}
	}
	/** Test-only: the app this workspace belongs to (views get it; links resolve in its vault). */
	app: App | undefined;
}

export class WorkspaceLeaf {
	view!: View;
	constructor(readonly workspace: Workspace) {}
	/** Opens the file; `eState.subpath` (`#heading`) is where its view scrolls to. */
	async openFile(file: TFile, openState?: { eState?: Record<string, unknown> }): Promise<void> {
		this.workspace.opened.push(file);
		this.workspace.openedSubpaths.push(typeof openState?.eState?.subpath === "string" ? openState.eState.subpath : "");
		this.workspace.activeFile = file;
	}
	/** Puts the registered view of that type in this leaf and opens it, as the app does. */
	async setViewState(viewState: { type: string; active?: boolean }, _eState?: unknown): Promise<void> {
		const create = this.workspace.viewCreators.get(viewState.type);
		if (!create) throw new Error(`No view of type ${viewState.type}`);
		if (this.view) await this.view.close();
		this.view = create(this);
		if (!this.workspace.leaves.includes(this)) this.workspace.leaves.push(this);
		await this.view.open(document.body);
	}
	detach(): void {
		const i = this.workspace.leaves.indexOf(this);
		if (i >= 0) this.workspace.leaves.splice(i, 1);
		void this.view?.close();
	}
}

/** A pane's content. `open` and `close` are the app's lifecycle around `onOpen` and `onClose`. */
export abstract class View extends Component {
	app: App;
	icon = "";
	navigation = false;
	leaf: WorkspaceLeaf;
	containerEl: HTMLElement;
	scope: null = null;
	constructor(leaf: WorkspaceLeaf) {
		super();
		this.leaf = leaf;
		const app = leaf.workspace.app;
		if (!app) throw new Error("The stub's workspace has no app: make it with stubApp().");
		this.app = app;
		this.containerEl = div(undefined, "workspace-leaf-content");
	}
	/** Test-only (the app's own): shows the view in `parent` and runs `onOpen`. */
	async open(parent: Node): Promise<void> {
		parent.appendChild(this.containerEl);
		this.load();
		await this.onOpen();
	}
	/** Test-only (the app's own): runs `onClose` and takes the view out. */
	async close(): Promise<void> {
		await this.onClose();
		this.unload();
		this.containerEl.remove();
	}
	protected async onOpen(): Promise<void> {}
	protected async onClose(): Promise<void> {}
	abstract getViewType(): string;
	abstract getDisplayText(): string;
	getIcon(): string {
		return this.icon;
	}
	onResize(): void {}
}

/** A view with a header (`containerEl.children[0]`) and its content (`contentEl`). */
export abstract class ItemView extends View {
	contentEl: HTMLElement;
	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		div(this.containerEl, "view-header");
		this.contentEl = div(this.containerEl, "view-content");
	}
	addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = div(this.containerEl.children[0] as HTMLElement, "clickable-icon view-action");
		el.setAttribute("aria-label", title);
		el.dataset.icon = icon;
		el.addEventListener("click", (evt) => void callback(evt));
		return el;
	}
}

export abstract class Plugin extends Component {
	// Test-only (test/stubs/conformance.ts lists them): what the plugin registered, which the app keeps to itself.
	readonly commands: Command[] = [];
	readonly statusBarItems: HTMLElement[] = [];
	readonly ribbonIcons: { icon: string; title: string; el: HTMLElement; callback: (evt: MouseEvent) => unknown }[] = [];
	readonly settingTabs: PluginSettingTab[] = [];
	readonly intervals = new Set<number>();
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
	addStatusBarItem(): HTMLElement {
		const el = div(undefined, "status-bar-item");
		this.statusBarItems.push(el);
		this.register(() => el.remove());
		return el;
	}
	addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = div(undefined, "side-dock-ribbon-action");
		el.setAttribute("aria-label", title);
		el.addEventListener("click", (evt) => void callback(evt));
		this.ribbonIcons.push({ icon, title, el, callback });
		this.register(() => el.remove());
		return el;
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
	}
	registerView(type: string, viewCreator: (leaf: WorkspaceLeaf) => View): void {
		this.app.workspace.viewCreators.set(type, viewCreator);
		this.register(() => this.app.workspace.viewCreators.delete(type));
	}
	registerEvent(ref: EventRef): void {
		this.register(() => ref.detach());
	}
	registerInterval(id: number): number {
		this.intervals.add(id);
		this.register(() => {
			clearInterval(id);
			this.intervals.delete(id);
		});
		return id;
	}
	registerDomEvent(el: EventTarget, type: string, callback: (evt: Event) => unknown): void {
		el.addEventListener(type, callback);
		this.register(() => el.removeEventListener(type, callback));
	}
}

/** A settings page: `display` fills `containerEl`, `hide` runs when the user leaves it. */
export abstract class PluginSettingTab {
	containerEl: HTMLElement;
	constructor(
		public app: App,
		public plugin: Plugin,
	) {
		this.containerEl = div(undefined, "vertical-tab-content");
	}
	abstract display(): void;
	hide(): void {}
}

/** Obsidian's rules: forward slashes, no duplicate or edge slashes, NBSP to space, NFC. */
export function normalizePath(path: string): string {
	const cleaned = path
		.replace(/[\\/]+/g, "/")
		.replace(/\u00a0|\u202f/g, " ")
		.replace(/^\/+|\/+$/g, "");
	return (cleaned === "" ? "/" : cleaned).normalize("NFC");
}

// ---------------------------------------------------------------------------------------------
// UI: real DOM elements (tests that use these run in happy-dom), with the helpers Obsidian adds to
// HTMLElement, so that a test can type into inputs, pick options and click buttons.

interface DomInfo {
	text?: string;
	cls?: string | string[];
	attr?: Record<string, string>;
}

type Helpers = {
	createEl<K extends keyof HTMLElementTagNameMap>(tag: K, o?: DomInfo | string, cb?: (el: HTMLElementTagNameMap[K]) => void): HTMLElementTagNameMap[K];
	createDiv(o?: DomInfo | string, cb?: (el: HTMLDivElement) => void): HTMLDivElement;
	createSpan(o?: DomInfo | string, cb?: (el: HTMLSpanElement) => void): HTMLSpanElement;
	empty(): void;
	setText(text: string): void;
	addClass(...cls: string[]): void;
	removeClass(...cls: string[]): void;
	toggleClass(cls: string, on: boolean): void;
	setCssProps(props: Record<string, string>): void;
};

/** Obsidian's additions to HTMLElement, on the test DOM's prototype (once). */
function installDomHelpers(): void {
	const proto = (globalThis as { HTMLElement?: { prototype: HTMLElement & Partial<Helpers> } }).HTMLElement?.prototype;
	if (!proto || "createEl" in proto) return;
	const helpers: Helpers & ThisType<HTMLElement> = {
		createEl(tag, o, cb) {
			const el = document.createElement(tag);
			const info: DomInfo = typeof o === "string" ? { cls: o } : (o ?? {});
			if (info.text !== undefined) el.textContent = info.text;
			if (info.cls) el.classList.add(...(Array.isArray(info.cls) ? info.cls : info.cls.split(" ")).filter(Boolean));
			for (const [k, v] of Object.entries(info.attr ?? {})) el.setAttribute(k, v);
			this.appendChild(el);
			cb?.(el);
			return el;
		},
		createDiv(o, cb) {
			return (this as unknown as Helpers).createEl("div", o, cb);
		},
		createSpan(o, cb) {
			return (this as unknown as Helpers).createEl("span", o, cb);
		},
		empty() {
			while (this.firstChild) this.removeChild(this.firstChild);
		},
		setText(text) {
			this.textContent = text;
		},
		addClass(...cls) {
			this.classList.add(...cls);
		},
		removeClass(...cls) {
			this.classList.remove(...cls);
		},
		toggleClass(cls, on) {
			this.classList.toggle(cls, on);
		},
		setCssProps(props) {
			for (const [k, v] of Object.entries(props)) this.style.setProperty(k, v);
		},
	};
	Object.assign(proto, helpers);
}

function div(parent?: HTMLElement, cls?: string): HTMLElement {
	installDomHelpers();
	const el = document.createElement("div");
	if (cls) el.className = cls;
	parent?.appendChild(el);
	return el;
}

export class BaseComponent {
	disabled = false;
	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		return this;
	}
}

export abstract class ValueComponent<T> extends BaseComponent {
	abstract getValue(): T;
	abstract setValue(value: T): this;
}

abstract class InputComponent<E extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
	constructor(public inputEl: E) {
		super();
	}
	getValue(): string {
		return this.inputEl.value;
	}
	setValue(value: string): this {
		this.inputEl.value = value;
		return this;
	}
	setPlaceholder(placeholder: string): this {
		this.inputEl.placeholder = placeholder;
		return this;
	}
	onChange(cb: (value: string) => unknown): this {
		this.inputEl.addEventListener("input", () => void cb(this.inputEl.value));
		return this;
	}
}

export class TextComponent extends InputComponent<HTMLInputElement> {
	constructor(containerEl: HTMLElement) {
		installDomHelpers();
		const input = document.createElement("input");
		input.type = "text";
		containerEl.appendChild(input);
		super(input);
	}
}

export class TextAreaComponent extends InputComponent<HTMLTextAreaElement> {
	constructor(containerEl: HTMLElement) {
		installDomHelpers();
		const area = document.createElement("textarea");
		containerEl.appendChild(area);
		super(area);
	}
}

export class DropdownComponent extends ValueComponent<string> {
	selectEl: HTMLSelectElement;
	constructor(containerEl: HTMLElement) {
		super();
		installDomHelpers();
		this.selectEl = document.createElement("select");
		containerEl.appendChild(this.selectEl);
	}
	addOption(value: string, display: string): this {
		const option = document.createElement("option");
		option.value = value;
		option.textContent = display;
		this.selectEl.appendChild(option);
		return this;
	}
	addOptions(options: Record<string, string>): this {
		for (const [value, display] of Object.entries(options)) this.addOption(value, display);
		return this;
	}
	getValue(): string {
		return this.selectEl.value;
	}
	setValue(value: string): this {
		this.selectEl.value = value;
		return this;
	}
	onChange(cb: (value: string) => unknown): this {
		this.selectEl.addEventListener("change", () => void cb(this.selectEl.value));
		return this;
	}
}

export class ToggleComponent extends ValueComponent<boolean> {
	toggleEl: HTMLElement;
	private value = false;
	private listeners: ((value: boolean) => unknown)[] = [];
	constructor(containerEl: HTMLElement) {
		super();
		this.toggleEl = div(containerEl, "checkbox-container");
		this.toggleEl.addEventListener("click", () => {
			if (this.disabled) return;
			this.setValue(!this.value);
			for (const cb of this.listeners) void cb(this.value);
		});
	}
	getValue(): boolean {
		return this.value;
	}
	setValue(on: boolean): this {
		this.value = on;
		this.toggleEl.classList.toggle("is-enabled", on);
		return this;
	}
	onChange(cb: (value: boolean) => unknown): this {
		this.listeners.push(cb);
		return this;
	}
}

export class ButtonComponent extends BaseComponent {
	buttonEl: HTMLButtonElement;
	constructor(containerEl: HTMLElement) {
		super();
		installDomHelpers();
		this.buttonEl = document.createElement("button");
		containerEl.appendChild(this.buttonEl);
	}
	setButtonText(name: string): this {
		this.buttonEl.textContent = name;
		return this;
	}
	setCta(): this {
		this.buttonEl.classList.add("mod-cta");
		return this;
	}
	setWarning(): this {
		this.buttonEl.classList.add("mod-warning");
		return this;
	}
	setClass(cls: string): this {
		this.buttonEl.classList.add(cls);
		return this;
	}
	setDestructive(): this {
		this.buttonEl.classList.add("mod-destructive");
		return this;
	}
	setTooltip(tooltip: string): this {
		this.buttonEl.setAttribute("aria-label", tooltip);
		return this;
	}
	onClick(cb: (evt: MouseEvent) => unknown): this {
		this.buttonEl.addEventListener("click", (evt) => {
			if (!this.disabled) void cb(evt);
		});
		return this;
	}
}

/** The small icon button beside a setting (reset, remove): `extraSettingsEl`, clicked without an event. */
export class ExtraButtonComponent extends BaseComponent {
	extraSettingsEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.extraSettingsEl = div(containerEl, "clickable-icon extra-setting-button");
		this.extraSettingsEl.addEventListener("click", () => {
			if (!this.disabled) void this.callback?.();
		});
	}
	private callback: (() => unknown) | undefined;
	setTooltip(tooltip: string): this {
		this.extraSettingsEl.setAttribute("aria-label", tooltip);
		return this;
	}
	setIcon(icon: string): this {
		this.extraSettingsEl.dataset.icon = icon;
		return this;
	}
	onClick(callback: () => unknown): this {
		this.callback = callback;
		return this;
	}
}

/** One row of a settings page or modal: name and description on the left, controls on the right. */
export class Setting {
	settingEl: HTMLElement;
	infoEl: HTMLElement;
	nameEl: HTMLElement;
	descEl: HTMLElement;
	controlEl: HTMLElement;
	components: BaseComponent[] = [];
	constructor(containerEl: HTMLElement) {
		this.settingEl = div(containerEl, "setting-item");
		this.infoEl = div(this.settingEl, "setting-item-info");
		this.nameEl = div(this.infoEl, "setting-item-name");
		this.descEl = div(this.infoEl, "setting-item-description");
		this.controlEl = div(this.settingEl, "setting-item-control");
	}
	setName(name: string | DocumentFragment): this {
		this.nameEl.replaceChildren(name);
		return this;
	}
	setDesc(desc: string | DocumentFragment): this {
		this.descEl.replaceChildren(desc);
		return this;
	}
	setHeading(): this {
		this.settingEl.classList.add("setting-item-heading");
		return this;
	}
	setClass(cls: string): this {
		this.settingEl.classList.add(cls);
		return this;
	}
	private add<C extends BaseComponent>(component: C, cb: (c: C) => unknown): this {
		this.components.push(component);
		cb(component);
		return this;
	}
	addText(cb: (c: TextComponent) => unknown): this {
		return this.add(new TextComponent(this.controlEl), cb);
	}
	addTextArea(cb: (c: TextAreaComponent) => unknown): this {
		return this.add(new TextAreaComponent(this.controlEl), cb);
	}
	addDropdown(cb: (c: DropdownComponent) => unknown): this {
		return this.add(new DropdownComponent(this.controlEl), cb);
	}
	addToggle(cb: (c: ToggleComponent) => unknown): this {
		return this.add(new ToggleComponent(this.controlEl), cb);
	}
	addButton(cb: (c: ButtonComponent) => unknown): this {
		return this.add(new ButtonComponent(this.controlEl), cb);
	}
	addExtraButton(cb: (c: ExtraButtonComponent) => unknown): this {
		return this.add(new ExtraButtonComponent(this.controlEl), cb);
	}
}

export class Modal {
	containerEl: HTMLElement;
	modalEl: HTMLElement;
	titleEl: HTMLElement;
	contentEl: HTMLElement;
	/** The modals open right now, newest last: a test finds what the plugin opened. */
	static readonly open: Modal[] = [];
	constructor(public app: App) {
		this.containerEl = div(undefined, "modal-container");
		this.modalEl = div(this.containerEl, "modal");
		this.titleEl = div(this.modalEl, "modal-title");
		this.contentEl = div(this.modalEl, "modal-content");
	}
	open(): void {
		document.body.appendChild(this.containerEl);
		Modal.open.push(this);
		void this.onOpen();
	}
	close(): void {
		this.onClose();
		this.containerEl.remove();
		Modal.open.splice(Modal.open.indexOf(this), 1);
	}
	onOpen(): Promise<void> | void {}
	onClose(): void {}
	setTitle(title: string): this {
		this.titleEl.textContent = title;
		return this;
	}
}
