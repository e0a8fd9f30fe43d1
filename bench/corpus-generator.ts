import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile, open } from "node:fs/promises";
import { join, relative } from "node:path";
import { randomUUID } from "node:crypto";

/**
 * Builds a large `projects/` tree by replicating real transcripts (../shared/corpus when present,
 * else the bundled examples) under fresh session ids, spread over 20 projects, with their
 * 2.1.x sub-agent folders. Also builds one long single transcript by repeating real lines with
 * fresh uuids, message ids and tool ids.
 */

export interface SourceSession {
	name: string;
	text: string;
	/** `subagents/...` files beside it, relative to the session folder. */
	subagents: { rel: string; text: string }[];
}

export async function loadSources(roots: string[]): Promise<SourceSession[]> {
	const sources: SourceSession[] = [];
	for (const root of roots) {
		if (!existsSync(root)) continue;
		const files = await readdir(root, { recursive: true });
		for (const rel of files) {
			const name = rel.split(/[\\/]/).pop() ?? "";
			if (!name.endsWith(".jsonl") || name.startsWith("agent-") || rel.includes("subagents")) continue;
			const path = join(root, rel);
			const text = await readFile(path, "utf8");
			if (!text.includes('"assistant"')) continue;
			const side = path.slice(0, -".jsonl".length);
			const subagents: { rel: string; text: string }[] = [];
			if (existsSync(join(side, "subagents"))) {
				for (const sub of await readdir(join(side, "subagents"), { recursive: true })) {
					const full = join(side, "subagents", sub);
					if ((await stat(full)).isFile()) subagents.push({ rel: relative(side, full), text: await readFile(full, "utf8") });
				}
			}
			sources.push({ name: rel, text: text.endsWith("\n") ? text : `${text}\n`, subagents });
		}
	}
	if (sources.length === 0) throw new Error(`no source transcripts found in ${roots.join(", ")}`);
	return sources;
}

/** Writes `sessions` session files of about `totalBytes` in all. Returns the bytes written. */
export async function generateTree(root: string, sources: SourceSession[], sessions: number, totalBytes: number): Promise<{ bytes: number; files: number }> {
	await rm(root, { recursive: true, force: true });
	const average = sources.reduce((n, s) => n + Buffer.byteLength(s.text), 0) / sources.length;
	// Repeat each source's lines enough times that the tree reaches the wanted size.
	const repeat = Math.max(1, Math.round(totalBytes / sessions / average));
	let bytes = 0;
	let files = 0;
	for (let i = 0; i < sessions; i++) {
		const source = sources[i % sources.length]!;
		const project = join(root, `-home-dev-project-${String(i % 20).padStart(2, "0")}`);
		await mkdir(project, { recursive: true });
		const id = randomUUID();
		const oldId = /"sessionId":"([^"]+)"/.exec(source.text)?.[1];
		// Every session its own uuids, as real sessions have: replicas of one source in one folder
		// sharing them read as an older `--resume`'s copies of one another (see `foldCopies`).
		const body = repeatWithFreshIds(source.text, repeat, oldId, id, i + 1);
		await writeFile(join(project, `${id}.jsonl`), body);
		bytes += Buffer.byteLength(body);
		files++;
		for (const sub of source.subagents) {
			const target = join(project, id, sub.rel);
			await mkdir(join(target, ".."), { recursive: true });
			const text = freshIds(oldId ? sub.text.split(oldId).join(id) : sub.text, (i + 1) * REPLICAS_MAX);
			await writeFile(target, text);
			bytes += Buffer.byteLength(text);
			files++;
		}
	}
	return { bytes, files };
}

/** How many times a source may be repeated within one session: each session's rounds are its own (`session * REPLICAS_MAX + r`). */
const REPLICAS_MAX = 1024;

function repeatWithFreshIds(text: string, times: number, oldId: string | undefined, newId: string, session: number): string {
	const base = oldId ? text.split(oldId).join(newId) : text;
	const parts: string[] = [];
	for (let r = 0; r < Math.min(times, REPLICAS_MAX); r++) parts.push(freshIds(base, session * REPLICAS_MAX + r));
	return parts.join("");
}

/** Makes a replica's lines distinct: new uuids, message ids and tool ids, as a long session would have. */
export function freshIds(text: string, round: number): string {
	return text
		.replace(/"(uuid|parentUuid|leafUuid|messageId)":"([0-9a-f]{8})/g, (_m, key: string, head: string) => `"${key}":"${((parseInt(head, 16) ^ round) >>> 0).toString(16).padStart(8, "0")}`)
		.replace(/"id":"msg_/g, `"id":"msg_r${round}_`)
		.replace(/toolu_/g, `toolu_r${round}_`);
}

/** One transcript of about `totalBytes`, written in pieces so memory stays small. */
export async function generateLongTranscript(path: string, sources: SourceSession[], totalBytes: number): Promise<number> {
	const handle = await open(path, "w");
	let written = 0;
	let round = 0;
	try {
		while (written < totalBytes) {
			const source = sources[round % sources.length]!;
			const text = freshIds(source.text, round + 1);
			await handle.write(text);
			written += Buffer.byteLength(text);
			round++;
		}
	} finally {
		await handle.close();
	}
	return written;
}
