import { sessionSearchDoc } from "../core/search/session-doc";
import type { SearchDoc } from "../core/search/session-search";
import { sessionRows, type SessionRow, type SessionSource } from "../core/usage/session-rows";
import { StateFolder } from "./state-folder";

/**
 * What the Sessions view reads, all of it prepared by the sync in the plugin's state folder: the
 * session records (digests, tags, usage) for the list and the pictures, and each session's stored
 * model, redacted, for search. Never a transcript. Nothing is read until the view asks.
 */
export class SessionCatalog {
	private readonly folder: StateFolder;
	private records: Readonly<Record<string, SessionSource>> = {};

	constructor(stateDir: string) {
		this.folder = new StateFolder(stateDir);
	}

	/** The sessions as the last sync left them, newest first. */
	async rows(): Promise<SessionRow[]> {
		const state = await this.folder.loadState();
		this.records = state.sessions;
		return sessionRows(state.sessions);
	}

	/** A session's search document: its digest, and its prompts and replies from its stored model when there is one. */
	async searchDoc(id: string): Promise<SearchDoc | undefined> {
		const record = this.records[id];
		if (!record) return undefined;
		const stored = await this.folder.load(id).catch(() => undefined);
		return sessionSearchDoc(id, record.digest, record.tags, stored?.model.events);
	}
}
