import { ItemView, Notice, type WorkspaceLeaf } from "obsidian";
import { dashboardCharts, tokens as formatTokens } from "../core/charts/dashboard-charts";
import { serializeSvg } from "../core/charts/svg";
import { turnHeading } from "../core/notes/render-session-note";
import { ConversationIndex, type SearchDoc, type SearchHit } from "../core/search/conversation-index";
import { sessionDay } from "../core/text/local-date";
import { AGENT_NAMES, type AgentId } from "../core/transcript/agents";
import type { PriceTable } from "../core/usage/model-prices";
import { filterChoices, matchesFilter, type SessionFilter } from "../core/usage/session-filter";
import type { CatalogRows, SessionRow, UsageOnlyRow } from "../core/usage/session-rows";
import { summarizeUsage } from "../core/usage/usage-summary";
import { svgElement } from "./svg-dom";
import { VirtualList } from "./virtual-list";

export const SESSIONS_VIEW_TYPE = "ai-memory-sessions";

/** Where the view's data comes from: what the sync prepared (see `node/session-catalog`). */
export interface SessionsSource {
	/** The sessions to list, and the usage no session holds (counted in the pictures only). */
	rows(): Promise<CatalogRows>;
	searchDoc(id: string): Promise<SearchDoc | undefined>;
}

export interface SessionsViewDeps {
	/** Undefined where the vault is not on a local disk. */
	source(): SessionsSource | undefined;
	prices(): PriceTable;
	/** Writes the dashboard note and its pictures; resolves to a one-line result. */
	writeDashboard(rows: CatalogRows): Promise<string>;
}

interface Item {
	row: SessionRow;
	hit?: SearchHit;
}

const ROW_HEIGHT = 58;
const MAX_TAGS = 200;
/** Stored models read per pause while the search index fills, so the view stays responsive. */
const INDEX_BATCH = 40;

/**
 * The Sessions view: every session newest first, filtered by project, agent, date range and tag,
 * searched in full text (a hit opens its note at the matching turn), and its pictures. It reads
 * nothing until it opens; the list shows from the sync's records at once and search fills in the
 * background from the stored models. Keyboard: type to search, arrows, Page Up/Down, Home/End to
 * move, Enter to open.
 */
export class SessionsView extends ItemView {
	private rows: SessionRow[] = [];
	/** Tokens no session holds: in the pictures, never in the list, its menus or search. */
	private usageOnly: UsageOnlyRow[] = [];
	/** Sessions of the state not of the shape the sync writes: left out, and said in the status line. */
	private unreadable = 0;
	private byId = new Map<string, SessionRow>();
	private readonly index = new ConversationIndex();
	/** Reads of the sessions asked for so far: only the latest one's answer is shown. */
	private reads = 0;
	/** What each indexed session was indexed from: a refresh indexes only what changed. */
	private readonly indexedAs = new Map<string, string>();
	private filter: SessionFilter = {};
	private query = "";
	private tab: "sessions" | "pictures" = "sessions";
	private list!: VirtualList<Item>;
	private statusEl!: HTMLElement;
	private searchEl!: HTMLInputElement;
	private filtersEl!: HTMLElement;
	private picturesEl!: HTMLElement;
	private readonly drawn = new Map<string, { bytes: string; el: Element }>();
	private indexing: { done: number; total: number } | undefined;
	private generation = 0;
	private closed = false;
	/** Settles when the search index holds every session (tests and the benchmark wait for it). */
	indexed: Promise<void> = Promise.resolve();

	constructor(
		leaf: WorkspaceLeaf,
		private readonly deps: SessionsViewDeps,
	) {
		super(leaf);
		this.icon = "history";
	}

	getViewType(): string {
		return SESSIONS_VIEW_TYPE;
	}

	getDisplayText(): string {
		return "AI sessions";
	}

	override async onOpen(): Promise<void> {
		this.closed = false;
		const root = this.contentEl;
		root.empty();
		root.addClass("acm-sessions");
		this.addAction("refresh-cw", "Reload sessions", () => void this.refresh());
		const bar = root.createDiv({ cls: "acm-sessions-bar" });
		this.searchEl = bar.createEl("input", { cls: "acm-sessions-search", attr: { type: "search", placeholder: "Search prompts, replies and digests", "aria-label": "Search sessions" } });
		this.searchEl.addEventListener("input", () => {
			this.query = this.searchEl.value;
			this.update();
		});
		const tabs = bar.createDiv({ cls: "acm-sessions-tabs" });
		for (const [id, label] of [
			["sessions", "Sessions"],
			["pictures", "Pictures"],
		] as const) {
			const b = tabs.createEl("button", { text: label, cls: "acm-sessions-tab", attr: { "data-tab": id } });
			b.addEventListener("click", () => this.showTab(id));
		}
		this.filtersEl = root.createDiv({ cls: "acm-sessions-filters" });
		this.statusEl = root.createDiv({ cls: "acm-sessions-status", attr: { "aria-live": "polite" } });
		this.list = new VirtualList<Item>(root, ROW_HEIGHT, (el, item) => this.renderRow(el, item), (item) => void this.openItem(item));
		this.picturesEl = root.createDiv({ cls: "acm-sessions-pictures" });
		root.addEventListener("keydown", (evt) => this.onKey(evt));
		this.showTab("sessions");
		await this.refresh();
	}

	override async onClose(): Promise<void> {
		this.closed = true;
		this.generation++;
		this.list.close();
	}

	/** Reads the sessions again (after a sync); the index re-reads only the sessions that changed. */
	async refresh(): Promise<void> {
		const source = this.deps.source();
		if (!source) {
			this.statusEl.setText("The sessions view needs a vault on the local file system (desktop).");
			return;
		}
		// Two syncs end close together: the second read may answer first, and the older must not win.
		const asked = ++this.reads;
		const read = await source.rows();
		if (asked !== this.reads) return;
		({ sessions: this.rows, usageOnly: this.usageOnly } = read);
		this.unreadable = read.unreadable ?? 0;
		this.byId = new Map(this.rows.map((r) => [r.id, r]));
		this.renderFilters();
		this.update();
		// Search fills in after the list is on screen.
		const generation = ++this.generation;
		this.indexed = new Promise<void>((resolve) => window.setTimeout(resolve, 0)).then(() => this.fillIndex(source, generation));
	}

	/** The rows and hits the filters and the query leave, drawn again; pictures only where their bytes changed. */
	update(): void {
		const items = this.items();
		this.list.setItems(items);
		this.renderStatus(items.length);
		if (this.tab === "pictures") this.drawPictures();
	}

	/** Filters as the user set them (for tests and the command that opens the view on a project). */
	setFilter(filter: SessionFilter): void {
		this.filter = { ...filter };
		this.renderFilters();
		this.update();
	}

	get visibleItems(): number {
		return this.list.length;
	}

	private items(): Item[] {
		const passes = (row: SessionRow) => matchesFilter(row, this.filter);
		if (this.query.trim() === "") return this.rows.filter(passes).map((row) => ({ row }));
		return this.index
			.search(this.query, { limit: 1000, accept: (id) => {
				const row = this.byId.get(id);
				return row !== undefined && passes(row);
			} })
			.map((hit) => ({ row: this.byId.get(hit.id)!, hit }));
	}

	private async fillIndex(source: SessionsSource, generation: number): Promise<void> {
		for (const id of [...this.indexedAs.keys()]) {
			if (!this.byId.has(id)) {
				this.index.remove(id);
				this.indexedAs.delete(id);
			}
		}
		const todo = this.rows.filter((r) => this.indexedAs.get(r.id) !== signature(r));
		this.indexing = todo.length > 0 ? { done: 0, total: todo.length } : undefined;
		for (let i = 0; i < todo.length; i += INDEX_BATCH) {
			const batch = todo.slice(i, i + INDEX_BATCH);
			const docs = await Promise.all(batch.map((r) => source.searchDoc(r.id)));
			if (this.closed || generation !== this.generation) return;
			batch.forEach((row, k) => {
				const doc = docs[k];
				if (doc) this.index.add(doc);
				this.indexedAs.set(row.id, signature(row));
			});
			this.indexing = { done: Math.min(todo.length, i + INDEX_BATCH), total: todo.length };
			if (this.query.trim() !== "") this.update();
			else this.renderStatus(this.list.length);
		}
		this.indexing = undefined;
		this.update();
	}

	private onKey(evt: KeyboardEvent): void {
		if (this.tab !== "sessions") return;
		const inSearch = evt.target === this.searchEl;
		// In the search box Home and End move the caret; the arrows, pages and Enter drive the list.
		if (inSearch && (evt.key === "Home" || evt.key === "End")) return;
		if (evt.key === "Escape" && inSearch && this.searchEl.value !== "") {
			this.searchEl.value = "";
			this.query = "";
			this.update();
			evt.preventDefault();
			return;
		}
		if (this.list.handleKey(evt)) evt.preventDefault();
	}

	private async openItem(item: Item): Promise<void> {
		const { row, hit } = item;
		const file = this.app.vault.getFileByPath(row.notePath);
		if (row.deleted || !file) {
			new Notice(`The note of "${row.title}" was deleted or moved away; a rebuild brings it back.`);
			return;
		}
		// The file itself, not a link to its path: a note the person renamed "Q#1" was opened as "Q" (another note) at a heading "1".
		await this.app.workspace.getLeaf(false).openFile(file, hit && hit.turn > 0 ? { eState: { subpath: `#${turnHeading(hit.turn)}` } } : undefined);
	}

	private showTab(tab: "sessions" | "pictures"): void {
		this.tab = tab;
		for (const b of Array.from(this.contentEl.querySelectorAll<HTMLElement>(".acm-sessions-tab"))) b.toggleClass("is-active", b.dataset.tab === tab);
		this.list.scroller.toggleClass("acm-hidden", tab !== "sessions");
		this.picturesEl.toggleClass("acm-hidden", tab !== "pictures");
		if (tab === "pictures") this.drawPictures();
	}

	private renderFilters(): void {
		const el = this.filtersEl;
		el.empty();
		const choices = filterChoices(this.rows);
		const select = (label: string, values: readonly string[], current: string | undefined, name: (v: string) => string, set: (v: string | undefined) => void) => {
			const s = el.createEl("select", { cls: "dropdown", attr: { "aria-label": label } });
			s.createEl("option", { text: `All ${label.toLowerCase()}s`, attr: { value: "" } });
			// The menu is filled when it is first used: thousands of options cost the open, not the choice.
			const fill = (all: boolean) => {
				for (const v of values) if (all || v === current) s.createEl("option", { text: name(v), attr: { value: v } });
			};
			fill(false);
			s.value = current ?? "";
			let filled = false;
			const fillAll = () => {
				if (filled) return;
				filled = true;
				const keep = s.value;
				while (s.options.length > 1) s.remove(1);
				fill(true);
				s.value = keep;
			};
			s.addEventListener("focus", fillAll);
			s.addEventListener("pointerdown", fillAll);
			s.addEventListener("change", () => {
				set(s.value === "" ? undefined : s.value);
				this.update();
			});
		};
		select("Project", choices.projects, this.filter.project, (v) => v, (v) => (this.filter.project = v));
		select("Agent", choices.agents, this.filter.agent, agentName, (v) => (this.filter.agent = v as AgentId | undefined));
		// The most used tags: a menu of thousands helps nobody (search finds the others).
		select("Tag", choices.tags.slice(0, MAX_TAGS), this.filter.tag, (v) => v, (v) => (this.filter.tag = v));
		for (const [key, label] of [
			["from", "From"],
			["to", "To"],
		] as const) {
			const input = el.createEl("input", { attr: { type: "date", "aria-label": label } });
			input.value = this.filter[key] ?? "";
			input.addEventListener("change", () => {
				this.filter[key] = /^\d{4}-\d{2}-\d{2}$/.test(input.value) ? input.value : undefined;
				this.update();
			});
		}
	}

	private renderStatus(shown: number): void {
		const parts = [this.query.trim() === "" ? `${count(shown)} of ${count(this.rows.length)} sessions` : `${count(shown)} found`];
		if (this.unreadable > 0) parts.push(`${count(this.unreadable)} left out: the plugin's state holds them in a shape this version does not read`);
		if (this.indexing) parts.push(`indexing ${count(this.indexing.done)} of ${count(this.indexing.total)} for search`);
		this.statusEl.setText(parts.join(" · "));
	}

	private renderRow(el: HTMLElement, { row, hit }: Item): void {
		const top = el.createDiv({ cls: "acm-session-line" });
		top.createSpan({ cls: "acm-session-date", text: row.started ? sessionDay(row.started) : "" });
		top.createSpan({ cls: "acm-session-title", text: row.title });
		top.createSpan({ cls: "acm-session-size", text: `${formatTokens(row.tokens)} tokens` });
		const meta = el.createDiv({ cls: "acm-session-meta" });
		meta.createSpan({ text: `${row.project} · ${agentName(row.agent)}` });
		if (hit) meta.createSpan({ cls: "acm-session-snippet", text: `${hit.turn > 0 ? `turn ${hit.turn}: ` : ""}${hit.snippet}` });
		else if (row.tags.length > 0) meta.createSpan({ cls: "acm-session-tags", text: row.tags.map((t) => `#${t}`).join(" ") });
	}

	/** Each picture of the filtered sessions, replaced only when its bytes changed. */
	private drawPictures(): void {
		const el = this.picturesEl;
		if (!el.querySelector(".acm-dashboard-button")) {
			const b = el.createEl("button", { text: "Write dashboard note", cls: "acm-dashboard-button" });
			b.addEventListener("click", () => void this.deps.writeDashboard({ sessions: this.rows, usageOnly: this.usageOnly }).then((msg) => new Notice(msg)));
		}
		const rows = this.rows.filter((r) => matchesFilter(r, this.filter));
		const usageOnly = this.usageOnly.filter((r) => matchesFilter(r, this.filter));
		for (const chart of dashboardCharts(summarizeUsage(rows, this.deps.prices(), usageOnly))) {
			const bytes = serializeSvg(chart.svg);
			const before = this.drawn.get(chart.id);
			if (before?.bytes === bytes) continue;
			const svg = svgElement(chart.svg, el.ownerDocument);
			if (before) before.el.replaceWith(svg);
			else el.createDiv({ cls: "acm-chart-slot", attr: { "data-chart": chart.id } }).appendChild(svg);
			this.drawn.set(chart.id, { bytes, el: svg });
		}
	}
}

/** What a session's search document depends on: a sync that changes it changes this. */
function signature(row: SessionRow): string {
	return `${row.title}\u0000${row.tokens}\u0000${row.prompts}\u0000${row.tags.join(",")}`;
}

/** An agent's name; an id this release does not know (a newer one's) as it is, never a property of every object (`constructor`). */
function agentName(id: string): string {
	return Object.hasOwn(AGENT_NAMES, id) ? AGENT_NAMES[id as AgentId] : id;
}

function count(n: number): string {
	return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
