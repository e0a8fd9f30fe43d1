import type { PassedOverEntry, TranscriptSource } from "../../src/core/ports";
import { splitCompleteLines } from "../../src/core/transcript/jsonl-lines";
import type { TailCursor, TranscriptFile } from "../../src/core/transcript/transcript-files";

/**
 * Claude Code's transcripts folder in memory: `projects/<projectDir>/<session>.jsonl`, appended
 * to and deleted like the real one. With the in-memory note store, the whole engine runs without
 * a disk.
 */
export class MemoryTranscripts implements TranscriptSource {
	private readonly files = new Map<string, { projectDir: string; fileId: string; bytes: Buffer; mtimeMs: number; ino: number; as?: Pick<TranscriptFile, "agent" | "kind" | "cwd"> }>();
	/** Modification times (and inode numbers) as a counter: from a time after every session the tests write, as a real file's last write is after the lines it holds. */
	private clock = Date.UTC(2030, 0, 1);

	/** Adds (or replaces) a session transcript; returns its path. */
	put(projectDir: string, sessionId: string, text: string): string {
		const path = `/claude/projects/${projectDir}/${sessionId}.jsonl`;
		this.files.set(path, { projectDir, fileId: sessionId, bytes: Buffer.from(text, "utf8"), mtimeMs: this.clock++, ino: this.clock++ });
		return path;
	}

	/** Adds (or replaces) Aider's chat history in a project's folder; returns its path. */
	putAiderHistory(project: string, text: string | Buffer): string {
		const path = `${project}/.aider.chat.history.md`;
		this.files.set(path, { projectDir: "aider", fileId: "aider-app", bytes: Buffer.from(text), mtimeMs: this.clock++, ino: this.clock++, as: { agent: "aider", kind: "sessions", cwd: project } });
		return path;
	}

	/** Adds (or replaces) another agent's session file at `path` (a Codex rollout, a Gemini CLI chat); returns its path. */
	putAgentFile(path: string, as: Pick<TranscriptFile, "agent" | "cwd">, fileId: string, text: string): string {
		this.files.set(path, { projectDir: as.agent ?? "claude-code", fileId, bytes: Buffer.from(text), mtimeMs: this.clock++, ino: this.clock++, as: { ...as, kind: "session" } });
		return path;
	}

	append(path: string, text: string | Buffer): void {
		const file = this.files.get(path);
		if (!file) throw new Error(`no transcript ${path}`);
		file.bytes = Buffer.concat([file.bytes, Buffer.from(text)]);
		file.mtimeMs = this.clock++;
	}

	/** Rewritten in place: the same inode, other bytes (truncated, or edited in an editor). */
	rewrite(path: string, text: string | Buffer): void {
		const file = this.files.get(path);
		if (!file) throw new Error(`no transcript ${path}`);
		file.bytes = Buffer.from(text);
		file.mtimeMs = this.clock++;
	}

	/** What the scan passes over, as a real folder's links or placeholders would be. */
	passed: PassedOverEntry[] = [];

	passedOver(): readonly PassedOverEntry[] {
		return this.passed;
	}

	/** Claude Code purged it (its 30-day retention). */
	purge(path: string): void {
		this.files.delete(path);
	}

	async scan(): Promise<TranscriptFile[]> {
		return [...this.files.keys()].sort().map((path) => this.fileOf(path)!);
	}

	async stat(file: TranscriptFile): Promise<TranscriptFile | undefined> {
		return this.fileOf(file.path);
	}

	async readAppended(path: string, cursor: TailCursor | undefined, onLines: Parameters<TranscriptSource["readAppended"]>[2], onRestart: () => void): Promise<{ cursor: TailCursor; bytesRead: number }> {
		const file = this.files.get(path);
		if (!file) throw new Error(`ENOENT: ${path}`);
		const head = file.bytes.subarray(0, 64).toString("base64");
		let from = cursor;
		// Replaced when the bytes it began with are not where they were.
		const before = from ? Buffer.from(from.head, "base64") : undefined;
		if (from && before && (from.ino !== file.ino || from.offset > file.bytes.length || !file.bytes.subarray(0, before.length).equals(before))) {
			onRestart();
			from = undefined;
		}
		const offset = from?.offset ?? 0;
		const split = splitCompleteLines(file.bytes.subarray(offset), from?.nextLineNo ?? 1);
		if (split.lines.length > 0) onLines(split.lines);
		return { cursor: { offset: offset + split.consumed, nextLineNo: (from?.nextLineNo ?? 1) + split.lines.length, ino: file.ino, head }, bytesRead: file.bytes.length - offset };
	}

	async readMeta(): Promise<undefined> {
		return undefined;
	}

	private fileOf(path: string): TranscriptFile | undefined {
		const f = this.files.get(path);
		return f ? { path, projectDir: f.projectDir, kind: "session", fileId: f.fileId, ...f.as, size: f.bytes.length, mtimeMs: f.mtimeMs, ino: f.ino } : undefined;
	}
}
