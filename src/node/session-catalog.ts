import { conversationDoc } from "../core/search/conversation-doc";
import type { SearchDoc } from "../core/search/conversation-index";
import type { SessionRecord } from "../core/sync/sync-state";
import { sessionRows, usageOnlyRows, type CatalogRows } from "../core/usage/session-rows";
import { StateFolder } from "./state-folder";

/**
 * What the Sessions view reads, all of it prepared by the sync in the plugin's state folder: the
 * catalog (each session cut to what the list and the pictures show) to open, then the whole
 * records (digests) and each session's stored model, redacted, for search. Never a transcript,
 * and nothing until the view asks.
 */
export class SessionCatalog {
	private readonly folder: StateFolder;
	private records: Promise<Record<string, SessionRecord>> | undefined;

	constructor(stateDir: string) {
		this.folder = new StateFolder(stateDir);
	}

	/** The sessions as the last sync left them, newest first, and the usage no session holds. */
	async rows(): Promise<CatalogRows> {
		this.records = undefined;
		const catalog = await this.folder.loadCatalog();
		const sessions = sessionRows(catalog.sessions);
		return { sessions, usageOnly: usageOnlyRows(catalog.usageOnly), unreadable: Object.keys(catalog.sessions).length - sessions.length };
	}

	/** A session's search document: its digest, and its prompts and replies from its stored model when there is one. */
	async searchDoc(id: string): Promise<SearchDoc | undefined> {
		// A state that cannot be read stops the sync, which says so; the view finds nothing in it meanwhile.
		this.records ??= this.folder.loadState().then((s) => s.sessions, () => ({}));
		const record = (await this.records)[id];
		if (!record) return undefined;
		const stored = await this.folder.load(id).catch(() => undefined);
		return conversationDoc(id, record.digest, record.tags, stored?.model.events);
	}
}
