import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { classifyProjectFile, type TranscriptFile } from "../core/transcript/transcript-files";

/**
 * Lists every transcript under a projects root by stat alone: sessions and legacy sibling
 * sub-agents (`<project>/*.jsonl`), and 2.1.2+ sub-agents (`<project>/<session>/subagents/…`,
 * including Workflow runs one level deeper). Unreadable folders are skipped, never fatal.
 */
export async function scanTranscripts(root: string): Promise<TranscriptFile[]> {
	const projects = await list(root);
	const perProject = await Promise.all(
		projects.filter((d) => d.isDirectory() && d.name !== "memory").map((d) => scanProject(root, d.name)),
	);
	return perProject.flat();
}

async function scanProject(root: string, projectDir: string): Promise<TranscriptFile[]> {
	const dir = join(root, projectDir);
	const entries = await list(dir);
	const jobs: Promise<TranscriptFile | TranscriptFile[] | undefined>[] = [];
	for (const entry of entries) {
		if (entry.isFile()) {
			const kind = classifyProjectFile(entry.name);
			if (kind) jobs.push(stamp(join(dir, entry.name), { projectDir, ...kind }));
		} else if (entry.isDirectory() && entry.name !== "memory") {
			jobs.push(scanSubagents(join(dir, entry.name, "subagents"), projectDir, entry.name));
		}
	}
	const found = await Promise.all(jobs);
	return found.flat().filter((f): f is TranscriptFile => f !== undefined);
}

async function scanSubagents(dir: string, projectDir: string, parentSessionId: string): Promise<TranscriptFile[]> {
	const entries = await list(dir);
	if (entries.length === 0) return [];
	const names = new Set(entries.map((e) => e.name));
	const jobs: Promise<TranscriptFile | TranscriptFile[] | undefined>[] = [];
	for (const entry of entries) {
		if (entry.isFile()) {
			const kind = classifyProjectFile(entry.name);
			if (kind?.kind !== "subagent") continue;
			const metaName = `${kind.fileId}.meta.json`;
			jobs.push(
				stamp(join(dir, entry.name), {
					projectDir,
					...kind,
					parentSessionId,
					metaPath: names.has(metaName) ? join(dir, metaName) : undefined,
				}),
			);
		} else if (entry.isDirectory()) {
			// subagents/workflows/<run>/agent-*.jsonl
			jobs.push(
				list(join(dir, entry.name)).then((runs) =>
					Promise.all(
						runs.filter((r) => r.isDirectory()).map((r) => scanSubagents(join(dir, entry.name, r.name), projectDir, parentSessionId)),
					).then((x) => x.flat()),
				),
			);
		}
	}
	const found = await Promise.all(jobs);
	return found.flat().filter((f): f is TranscriptFile => f !== undefined);
}

async function stamp(
	path: string,
	info: Omit<TranscriptFile, "path" | "size" | "mtimeMs" | "ino">,
): Promise<TranscriptFile | undefined> {
	try {
		const s = await stat(path);
		return { path, ...info, size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino) };
	} catch {
		// Deleted between readdir and stat (Claude Code's cleanup): simply not there.
		return undefined;
	}
}

async function list(dir: string): Promise<Dirent[]> {
	try {
		return await readdir(dir, { withFileTypes: true });
	} catch {
		return [];
	}
}
