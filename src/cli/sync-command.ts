import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { runSync } from "../core/sync/sync-engine";
import { claudeConfigDir, claudeProjectsDir } from "../node/claude-paths";
import { ProjectFolderFiles } from "../node/project-files";
import { TranscriptIndex } from "../node/transcript-index";
import { VaultFolder } from "../node/vault-folder";

export interface SyncOptions {
	vault: string;
	claudeDir?: string;
	project: string[];
	json?: boolean;
}

/** Runs one sync and prints a one-line result; returns the exit code. */
export async function runSyncCommand(options: SyncOptions): Promise<number> {
	const vault = resolve(options.vault);
	if (!(await isDirectory(vault))) return fail(`vault folder ${vault} does not exist`);
	const projectsDir = claudeProjectsDir(options.claudeDir ? resolve(options.claudeDir) : claudeConfigDir());
	if (!(await isDirectory(projectsDir))) return fail(`no Claude Code transcripts at ${projectsDir}`);

	const index = new TranscriptIndex(projectsDir);
	const read = await index.refresh();
	const report = await runSync(
		index.sessions(),
		{ notesFolder: "AI Conversations", tagPrefix: "ai/", projects: options.project.map((path) => ({ path, target: "CLAUDE.md" as const })) },
		new VaultFolder(vault),
		new ProjectFolderFiles(),
	);
	const errors = [...read.failed.map((f) => `${f.path}: ${f.reason}`), ...report.errors];
	if (options.json) {
		process.stdout.write(`${JSON.stringify({ transcriptsRead: read.updated.length, notesWritten: report.notesWritten, notesUnchanged: report.notesUnchanged, contextWritten: report.contextWritten, errors })}\n`);
	} else {
		process.stdout.write(`Synced ${read.updated.length} transcripts: ${report.notesWritten.length} notes written, ${report.notesUnchanged} unchanged, ${report.contextWritten.length} CLAUDE.md updated.\n`);
		for (const error of errors) process.stderr.write(`ai-memory: ${error}\n`);
	}
	return errors.length > 0 ? 1 : 0;
}

function fail(reason: string): number {
	process.stderr.write(`ai-memory: ${reason}\n`);
	return 2;
}

async function isDirectory(path: string): Promise<boolean> {
	return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
