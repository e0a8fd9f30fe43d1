import { lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RawLine } from "../core/transcript/jsonl-lines";
import type { TailCursor, TranscriptFile } from "../core/transcript/transcript-files";
import { BATCH_SIZE, listSessions, sessionsLines, type SessionRows } from "./opencode-db";
import { listStorageSessions, storageSessionLines } from "./opencode-storage";
import { databaseStamp, databaseWrittenMs } from "./sqlite-image";
import { CLOCK_SKEW_MS } from "../core/transcript/fold-for";
import { readDatabase } from "./sqlite-reader";
import { notPlainFile, type PassedOver } from "./transcript-scanner";

/**
 * opencode's sessions in one data folder (`$XDG_DATA_HOME/opencode`): those of its databases
 * (`opencode.db`, and `opencode-<channel>.db` of other release channels) and those of the JSON
 * files older versions wrote (`storage/`), each session once (a database's copy first: 1.2
 * migrated `storage/` into the database and left it there).
 *
 * Each session is a transcript of its own, named `<data folder>#<session id>` (not a file: the
 * name stays when a session moves from `storage/` into the database). A sub-agent's session (a
 * child, `parent_id` set) is a sub-agent transcript of its parent, as Claude Code's are: its work
 * is in the parent's note. Its stamp is the session's last event number and `time_updated`, so
 * a changed database re-reads only the sessions that changed; while the database's files (main
 * file and WAL) keep their size and time, it is not opened at all.
 */
export class OpencodeSessions {
	/** The latest listing of each session, by transcript name. */
	private readonly listed = new Map<string, TranscriptFile>();
	/** Databases that could not be listed, and why (reported as a transcript that failed). */
	private readonly failures = new Map<string, string>();
	/** Per database, the sessions the last scan found new or changed (and their weight): the sync reads them next, so they are read in batches. */
	private readonly toRead = new Map<string, Map<string, number>>();
	/** Sessions read in a batch and not handed over yet: the batch (or the batch under way), by id. */
	private readonly batched = new Map<string, Promise<Map<string, () => SessionRows>>>();

	constructor(readonly dataDir: string) {}

	/** Whether `path` names one of this folder's sessions or databases. */
	owns(path: string): boolean {
		return path.startsWith(`${this.dataDir}#`) || this.failures.has(path);
	}

	async scan(known: readonly TranscriptFile[], passed: PassedOver[] = []): Promise<TranscriptFile[]> {
		const found: TranscriptFile[] = [];
		const inDatabases = new Set<string>();
		const mine = known.filter((f) => f.agent === "opencode" && f.path.startsWith(`${this.dataDir}#`));
		this.failures.clear();
		for (const name of databaseNames(this.dataDir)) {
			const path = join(this.dataDir, name);
			// Something else under a database's name (a FIFO, a folder, a link, even to a database: no
			// agent's sessions are read through a link): not read, and said.
			const entry = lstatSync(path, { throwIfNoEntry: false });
			const stamp = entry?.isFile() ? databaseStamp(path) : undefined;
			if (stamp === undefined) {
				if (entry) passed.push(notPlainFile(path, entry));
				continue;
			}
			const before = mine.filter((f) => f.projectDir === name);
			let sessions: TranscriptFile[];
			if (before.length > 0 && before.every((f) => f.container === stamp)) sessions = before;
			else {
				try {
					// A session's stamp is its row's last update, a field of the database: one past the database's
					// last write by more than the clocks' leeway (a row that says 2999) is that write's time, so
					// its times are bounded as a file's are by the file's (see `timesUntil`). Within the leeway it
					// stays the row's: a file's time lags the row's by a few milliseconds, and the stamp tells a change.
					const written = databaseWrittenMs(path);
					sessions = (await readDatabase(path, listSessions)).map((s) => ({
						path: `${this.dataDir}#${s.id}`,
						agent: "opencode" as const,
						projectDir: name,
						...(s.parentId === undefined ? { kind: "session" as const, fileId: s.id } : { kind: "subagent" as const, fileId: s.id, agentId: s.id, parentSessionId: s.parentId }),
						size: s.seq,
						mtimeMs: written > 0 && s.updated > written + CLOCK_SKEW_MS ? written : s.updated,
						ino: 0,
						container: stamp,
					}));
				} catch (error) {
					// Its sessions stay as they were; the database is named among the transcripts not read.
					const message = error instanceof Error ? error.message : String(error);
					this.failures.set(path, message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message);
					found.push(...before, { path, agent: "opencode", projectDir: name, kind: "session", fileId: "", size: -1, mtimeMs: -1, ino: -1 });
					for (const f of before) inDatabases.add(f.fileId);
					continue;
				}
			}
			for (const s of sessions) {
				if (inDatabases.has(s.fileId)) continue;
				inDatabases.add(s.fileId);
				found.push(s);
			}
		}
		const storage = join(this.dataDir, "storage");
		for (const s of listStorageSessions(storage, passed)) {
			if (inDatabases.has(s.id)) continue;
			found.push({
				path: `${this.dataDir}#${s.id}`,
				agent: "opencode",
				projectDir: "storage",
				...(s.parentId === undefined ? { kind: "session" as const, fileId: s.id } : { kind: "subagent" as const, fileId: s.id, agentId: s.id, parentSessionId: s.parentId }),
				size: s.size,
				mtimeMs: s.mtimeMs,
				ino: 0,
				container: s.path,
			});
		}
		const stamps = new Map(mine.map((f) => [f.path, f]));
		this.toRead.clear();
		this.batched.clear();
		const changed: TranscriptFile[] = [];
		for (const f of found) {
			this.listed.set(f.path, f);
			const before = stamps.get(f.path);
			if (f.fileId !== "" && f.projectDir !== "storage" && !(before && before.size === f.size && before.mtimeMs === f.mtimeMs)) changed.push(f);
		}
		// In the order the index reads them (largest first, see `TranscriptIndex.readAll`): a batch
		// holds the sessions asked for next, and is handed over before the next one is read.
		changed.sort((a, b) => b.size - a.size);
		for (const f of changed) {
			const pending = this.toRead.get(f.projectDir) ?? new Map<string, number>();
			// A session's last event number grows with all that was written to it: the weight of its rows.
			pending.set(f.fileId, f.size > 0 ? f.size : 100);
			this.toRead.set(f.projectDir, pending);
		}
		return found;
	}

	/** A session's current stamp, listing the folder again (undefined: gone). */
	async stat(file: TranscriptFile): Promise<TranscriptFile | undefined> {
		const now = await this.scan([...this.listed.values()]);
		return now.find((f) => f.path === file.path);
	}

	/** Hands one session's rows to `onLines`, as lines (see `opencode-fold.ts`). */
	async read(path: string, onLines: (lines: RawLine[]) => void): Promise<{ cursor: TailCursor; bytesRead: number }> {
		const failure = this.failures.get(path);
		if (failure !== undefined) throw new Error(failure);
		const id = path.slice(this.dataDir.length + 1);
		const file = this.listed.get(path) ?? (await this.scan([])).find((f) => f.path === path);
		if (!file) throw new Error(`opencode session ${id} is no longer in ${this.dataDir}; the next sync looks again`);
		const read = file.projectDir === "storage" ? storageSessionLines(join(this.dataDir, "storage"), { id, path: file.container ?? "", projectId: projectOf(file.container) }) : await this.fromDatabase(file.projectDir, id);
		if (!read) throw new Error(`opencode session ${id} is no longer in ${this.dataDir}; the next sync looks again`);
		onLines(read.lines);
		return { cursor: { offset: read.bytes, nextLineNo: read.lines.length + 1, ino: 0, head: "" }, bytesRead: read.bytes };
	}

	/**
	 * One session's rows: from the batch it was read in, or with the next sessions the sync will ask
	 * for (the scan's new and changed ones) in a batch of its own.
	 */
	private fromDatabase(name: string, id: string): Promise<SessionRows | undefined> {
		// Each session's part of a batch, its lines made as it is handed over (see `sessionsLines`), and let go (the next read of one reads it anew).
		const take = (rows: Map<string, () => SessionRows>) => {
			const mine = rows.get(id);
			rows.delete(id);
			return mine?.();
		};
		const ready = this.batched.get(id);
		if (ready) {
			this.batched.delete(id);
			return ready.then(take);
		}
		const pending = this.toRead.get(name) ?? new Map<string, number>();
		const ids = [id];
		let weight = pending.get(id) ?? 0;
		pending.delete(id);
		const path = join(this.dataDir, name);
		// Most of a database that is not large (a first sync): all of it in one pass over its tables.
		const listed = [...this.listed.values()].filter((f) => f.projectDir === name).length;
		const whole = pending.size + 1 >= WHOLE_SHARE * listed && pending.size + 1 > BATCH && databaseBytes(path) <= WHOLE_BYTES;
		for (const [other, w] of pending) {
			if (!whole && (ids.length >= BATCH || weight + w > BATCH_EVENTS)) break;
			ids.push(other);
			weight += w;
			pending.delete(other);
		}
		const batch = readDatabase(path, (db) => sessionsLines(db, ids, whole));
		for (const other of ids.slice(1)) this.batched.set(other, batch);
		// A failed batch fails each read of its sessions, and nothing else.
		void batch.catch(() => undefined);
		return batch.then(take);
	}
}

/**
 * Sessions read from a database in one go (a few queries for all of them): 50, or fewer when they
 * hold many events. Few enough that their rows are folded and let go while young (a batch of a
 * thousand sessions' rows cost more garbage collection than its fewer queries saved, measured).
 */
const BATCH = BATCH_SIZE;
const BATCH_EVENTS = 20_000;
/**
 * When the sessions to read are most of a database (a first sync) and it is not large, its
 * tables are read in one pass each, as a scan is cheaper than looking sessions up one batch at a
 * time (measured: the bench's database, 3,730 sessions in 151 MiB, read 1.4 times faster). Its
 * rows are then all in memory at once: a third of the database at most (the event log is most of it).
 */
const WHOLE_SHARE = 0.5;
const WHOLE_BYTES = 256 * 1024 * 1024;

function databaseBytes(path: string): number {
	return (statSync(path, { throwIfNoEntry: false })?.size ?? 0) + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
}

/** The project id of a `storage/session/<project>/<id>.json` path. */
function projectOf(path: string | undefined): string {
	const parts = (path ?? "").split(/[\\/]/);
	return parts[parts.length - 2] ?? "";
}

/** `opencode.db` first, then the other channels' databases (`opencode-<channel>.db`, as `$OPENCODE_DB` may name one too). */
function databaseNames(dataDir: string): string[] {
	let names: string[];
	try {
		names = readdirSync(dataDir);
	} catch {
		return [];
	}
	return names.filter((n) => /^opencode(?:-[\w.-]+)?\.db$/.test(n)).sort((a, b) => (a === "opencode.db" ? -1 : b === "opencode.db" ? 1 : a < b ? -1 : a > b ? 1 : 0));
}
