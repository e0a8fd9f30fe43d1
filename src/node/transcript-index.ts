import { readFile, stat } from "node:fs/promises";
import { foldLines } from "../core/transcript/fold";
import { isObject } from "../core/transcript/parse-line";
import { createSession, type SessionModel } from "../core/transcript/session-model";
import { linkSubagents, type SessionWithAgents, type SubagentMeta } from "../core/transcript/link-subagents";
import { diffScan, type FileStamp, type TranscriptFile } from "../core/transcript/transcript-files";
import { readAppended, type TailCursor } from "./transcript-tail";
import { scanTranscripts } from "./transcript-scanner";

const READ_CONCURRENCY = 3;

export interface IndexedTranscript {
	file: TranscriptFile;
	cursor: TailCursor;
	model: SessionModel;
	meta?: SubagentMeta;
}

export interface RefreshResult {
	/** Files read this time (new or grown or replaced). */
	updated: IndexedTranscript[];
	/** Paths that disappeared upstream. Their models stay: a purged transcript keeps its note. */
	removed: string[];
	unchanged: number;
	bytesRead: number;
	/** Files that could not be read this time (permissions, vanished mid-read): path and reason. */
	failed: { path: string; reason: string }[];
}

/**
 * Keeps one folded session model per transcript file under a projects root and brings them up to
 * date by reading only appended bytes. The model and cursor of each file are plain data, so a
 * caller can persist them and hand them back (`restore`).
 */
export class TranscriptIndex {
	private readonly entries = new Map<string, IndexedTranscript>();

	constructor(private readonly root: string) {}

	restore(entry: IndexedTranscript): void {
		this.entries.set(entry.file.path, entry);
	}

	get(path: string): IndexedTranscript | undefined {
		return this.entries.get(path);
	}

	all(): IndexedTranscript[] {
		return [...this.entries.values()];
	}

	async refresh(): Promise<RefreshResult> {
		const files = await scanTranscripts(this.root);
		const stamps = new Map<string, FileStamp>();
		for (const [path, entry] of this.entries) stamps.set(path, entry.file);
		const diff = diffScan(stamps, files);
		const result: RefreshResult = { updated: [], removed: diff.removed, unchanged: diff.unchanged.length, bytesRead: 0, failed: [] };
		const queue = [...diff.added, ...diff.changed];
		// A few files in flight, so parsing one overlaps reading the next.
		const worker = async () => {
			for (let file = queue.shift(); file; file = queue.shift()) {
				try {
					const entry = await this.readFile(file);
					result.updated.push(entry);
					result.bytesRead += entry.lastBytesRead;
				} catch (error) {
					result.failed.push({ path: file.path, reason: error instanceof Error ? error.message : String(error) });
				}
			}
		};
		await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
		return result;
	}

	/**
	 * Re-reads the given known files without scanning the whole tree (a watcher names the file
	 * that changed). Unknown paths need a `refresh()`.
	 */
	async refreshPaths(paths: readonly string[]): Promise<RefreshResult> {
		const result: RefreshResult = { updated: [], removed: [], unchanged: 0, bytesRead: 0, failed: [] };
		for (const path of paths) {
			const known = this.entries.get(path);
			if (!known) continue;
			try {
				const s = await stat(path);
				const file = { ...known.file, size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino) };
				if (file.size === known.file.size && file.mtimeMs === known.file.mtimeMs && file.ino === known.file.ino) {
					result.unchanged++;
					continue;
				}
				const entry = await this.readFile(file);
				result.updated.push(entry);
				result.bytesRead += entry.lastBytesRead;
			} catch (error) {
				if (isMissing(error)) result.removed.push(path);
				else result.failed.push({ path, reason: error instanceof Error ? error.message : String(error) });
			}
		}
		return result;
	}

	/** Parents with their sub-agents attached, for every session file indexed so far. */
	sessions(): SessionWithAgents[] {
		const sessions = [];
		const agents = [];
		for (const entry of this.entries.values()) {
			if (entry.file.kind === "session") sessions.push(entry);
			else agents.push(entry);
		}
		return linkSubagents(sessions, agents).sessions;
	}

	private async readFile(file: TranscriptFile): Promise<IndexedTranscript & { lastBytesRead: number }> {
		const known = this.entries.get(file.path);
		let model = known?.model ?? createSession(file.fileId, file.agentId);
		const read = await readAppended(file.path, known?.cursor, (lines) => foldLines(model, lines), {
			// Truncated or replaced: what was folded no longer describes the file.
			onRestart: () => {
				model = createSession(file.fileId, file.agentId);
			},
		});
		const meta = file.metaPath ? ((await readMeta(file.metaPath)) ?? known?.meta) : known?.meta;
		const entry = { file, cursor: read.cursor, model, meta };
		this.entries.set(file.path, entry);
		return { ...entry, lastBytesRead: read.bytesRead };
	}
}

function isMissing(error: unknown): boolean {
	return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}

async function readMeta(path: string): Promise<SubagentMeta | undefined> {
	try {
		const value: unknown = JSON.parse(await readFile(path, "utf8"));
		if (!isObject(value)) return undefined;
		const text = (v: unknown) => (typeof v === "string" ? v : undefined);
		return { agentType: text(value.agentType), description: text(value.description), worktreePath: text(value.worktreePath) };
	} catch {
		return undefined;
	}
}
