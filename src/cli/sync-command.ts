import { printOut, stderrIsTerminal } from "./closed-output";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { danglingLink, fail, isDirectory, noFolder, said, saidOnOneLine, say, sayLine } from "./cli-common";
import { loadSettings } from "./settings-file";
import { foldersProblem } from "../core/settings";
import { claudeDirSlip, deviceClaudeDir, claudeProjectsDir } from "../node/claude-paths";
import { FoldWorkerPool } from "../node/fold-worker-pool";
import { agentRoots } from "../node/agent-homes";
import { isAbsentFolder } from "../node/absent-folder";
import { AGENT_NAMES, type AgentId } from "../core/transcript/agents";
import { pluginFolder } from "../node/plugin-paths";
import { VaultSync } from "../node/vault-sync";
import { SyncLockBusyError } from "../node/sync-lock";
import { joinSyncQueue, NO_PLACE } from "../node/sync-queue";
import { VaultFolder } from "../node/vault-folder";
import { blockOnFiles } from "../node/blocking-files";
import { writeNothing } from "../node/code-cache";
import { describePlan } from "../core/plan/describe-plan";
import { count, describeSyncReport } from "../core/sync/sync-summary";
import type { PlannedSync } from "../core/sync/sync-engine";
import { describeWriteError, isFileSystemError } from "../core/write-error";
import { grouped } from "../core/text/grouped-number";

export interface SyncOptions {
	vault: string;
	claudeDir?: string;
	configDir?: string;
	project: string[];
	full?: boolean;
	/** Print the plan; write nothing. */
	dryRun?: boolean;
	json?: boolean;
	/** Who runs it, for the lock: `hook` when a Claude Code hook started it (it waits longer). */
	by?: "cli" | "hook";
	/** Seconds to wait for another sync's lock, instead of the default for `by`. */
	wait?: number;
}

/** A person at a terminal waits a little for another sync; a hook's background sync waits longer. */
const LOCK_WAIT_MS = { cli: 10_000, hook: 120_000 };

/** Runs one sync and prints a one-line result; returns the exit code. */
export async function runSyncCommand(options: SyncOptions): Promise<number> {
	blockOnFiles();
	const vault = resolve(options.vault);
	if (!(await isDirectory(vault))) return fail(await noFolder("vault folder", vault));
	// A project named for this run that is not there would get no block, and the run would say nothing of it.
	for (const project of options.project) if (!(await isDirectory(project))) return fail(`${await noFolder("project folder", project)}; nothing was synced`);
	const folder = pluginFolder(vault, options.configDir);
	const settings = await loadSettings(join(folder, "data.json"), options.project);
	const folders = foldersProblem(settings);
	if (folders) return fail(`${folders} (in ${join(folder, "data.json")}); nothing was synced`);
	// --claude-dir, else this machine's folder from the plugin's settings, else ~/.claude.
	const claudeDir = options.claudeDir ? resolve(options.claudeDir) : deviceClaudeDir(settings);
	const slip = await claudeDirSlip(claudeDir);
	if (slip) return fail(`${slip}; nothing was synced (check ${options.claudeDir ? "--claude-dir" : "CLAUDE_CONFIG_DIR and the Claude Code folder in the plugin's settings"})`);
	// A link leading nowhere (a drive not mounted), a file or a FIFO was read as a folder without transcripts: "no transcripts"
	// (or "none of these folders exists: <it>/projects"), or a sync of the other agents alone without a word. Given by hand,
	// it stops the sync; else the other agents are read, and it is said.
	const notFolder = (await danglingLink(claudeDir)) !== undefined || !((await isDirectory(claudeDir)) || (await isAbsentFolder(claudeDir)));
	const unmounted = notFolder ? await noFolder("Claude Code's folder", claudeDir) : undefined;
	if (unmounted && options.claudeDir) return fail(`${unmounted}; nothing was synced (check --claude-dir)`);
	const projectsDir = claudeProjectsDir(claudeDir);
	const roots = (s: typeof settings) => agentRoots(s, projectsDir);
	const where = Object.entries(roots(settings)) as [AgentId, string | readonly string[]][];
	// Aider's histories are in the enabled projects' folders: one of them there is enough.
	const there = (dir: string | readonly string[]) => (typeof dir === "string" ? isDirectory(dir) : Promise.all(dir.map(isDirectory)).then((found) => found.some(Boolean)));
	if (!(await Promise.all(where.map(([, dir]) => there(dir)))).some(Boolean)) {
		if (unmounted) return fail(`${unmounted}; nothing was synced`);
		const looked = where.flatMap(([agent, dir]) => (typeof dir === "string" ? [`${dir} (${AGENT_NAMES[agent]})`] : dir.length === 0 ? [] : [`the enabled projects (${AGENT_NAMES[agent]})`]));
		// `"agents": []`, or a misspelt one (`["claude"]`): the list of folders was empty, and the sentence ended on its colon.
		if (looked.length === 0) return fail(`no agent's sessions to read: ${where.length === 0 ? `"agents" in ${join(folder, "data.json")} turns on none of ${Object.keys(AGENT_NAMES).join(", ")}` : "Aider's histories are read in the enabled projects, and none is enabled"}; nothing was synced`);
		return fail(where.length === 1 && where[0]![0] === "claude-code" ? `no Claude Code transcripts at ${projectsDir}` : `no transcripts: none of these folders exists: ${looked.join(", ")}`);
	}
	// Given by hand and not there, while other agents' folders are: said, not passed over in silence ("nothing to sync"). One
	// that starts with a `~` no shell expanded (`'~/.claude'` quoted) is a slip: it stops the sync. Any other may be a folder
	// Claude Code has not made yet (a person who began with another agent): the others are read.
	if (options.claudeDir && where.some(([agent]) => agent === "claude-code") && (await isAbsentFolder(claudeDir))) {
		const missing = await noFolder("Claude Code's folder", claudeDir);
		if (/^~(?:[\\/]|$)/.test(options.claudeDir)) return fail(`${missing}: the \`~\` in --claude-dir was not expanded (it was quoted); nothing was synced`);
		sayLine(process.stderr, `ai-memory: ${missing}: no Claude Code sessions were read (check --claude-dir); the other agents' were`);
	}
	// The built CLI has the worker script beside it: new transcripts are folded on every core.
	const pool = FoldWorkerPool.at(join(__dirname, "fold-worker.cjs"));
	// A vault with no state yet: a first sync, every transcript to fold.
	if (!options.dryRun && !existsSync(join(folder, "state"))) pool?.warm();
	const tool = options.by ?? "cli";
	const waitMs = options.wait === undefined ? LOCK_WAIT_MS[tool] : Math.max(0, options.wait * 1000);
	if (options.dryRun) {
		// A dry run writes nothing anywhere, not even the code cache (`~/.cache/ai-memory`).
		writeNothing();
		return printPlan(await new VaultSync(projectsDir, join(folder, "state"), new VaultFolder(vault, { removeLeftovers: false }), { vaultPath: resolve(vault), roots }).plan(settings, { rebuild: options.full }), options.json === true);
	}
	// A hook's sync with another hook's already waiting for the lock: that one reads this session's changes too.
	const place = tool === "hook" ? await joinSyncQueue(join(folder, "state")) : NO_PLACE;
	if (!place) {
		await pool?.close();
		printOut(options.json ? `${JSON.stringify({ queued: true })}\n` : "Another sync a hook started waits to run: it reads these sessions too.\n");
		return 0;
	}
	const sync = new VaultSync(projectsDir, join(folder, "state"), new VaultFolder(vault), { pool, vaultPath: resolve(vault), lock: { tool, waitMs, onLocked: () => place.leave() }, roots });
	let report;
	try {
		// Progress for a person at a terminal, on one line of stderr; never in --json or a pipe.
		const tty = !options.json && stderrIsTerminal();
		const onProgress = tty ? (done: number, total: number) => process.stderr.write(`\rSyncing ${grouped(done)} of ${grouped(total)} sessions…`) : undefined;
		report = await sync.run(settings, { rebuild: options.full, onProgress });
		if (tty) process.stderr.write("\r\x1b[K");
	} catch (error) {
		if (error instanceof SyncLockBusyError) return fail(`${error.message}; waited ${waitMs / 1000} s, try again when it is done`, 3);
		// A full disk, a read-only state folder: a sentence, not a stack.
		if (isFileSystemError(error)) return fail(`the sync stopped${pathOf(error)}: ${describeWriteError(error)}. Every file is written whole or not at all, so nothing was lost: fix that and sync again`, 1);
		throw error;
	} finally {
		await place.leave();
		await pool?.close();
	}
	if (unmounted) report.notices.unshift(`${unmounted}: its sessions were not read`);
	if (options.json) {
		printOut(`${JSON.stringify(report)}\n`);
	} else {
		printOut([said(describeSyncReport(report)), ...report.notices.map((notice) => saidOnOneLine(`Note: ${notice}`))].join(""));
		for (const error of report.errors) sayLine(process.stderr, `ai-memory: ${error}`);
	}
	return report.errors.length > 0 ? 1 : 0;
}

/** `sync --dry-run`: one line per change the sync would make, then what it would report. */
function printPlan(planned: PlannedSync, json: boolean): number {
	const changes = describePlan(planned.plan);
	const problems = [...planned.failed, ...planned.plan.errors];
	if (json) {
		process.stdout.write(`${JSON.stringify({ transcriptsRead: planned.transcriptsRead, changes, skipped: planned.plan.skipped, errors: problems, notices: planned.plan.notices })}\n`);
		return problems.length > 0 ? 1 : 0;
	}
	for (const c of changes) sayLine(process.stdout, `would ${c.action} ${c.target}${c.to ? ` → ${c.to}` : ""}`);
	const what = changes.length === 0 ? "nothing to do" : `${count(changes.length, "change")} planned`;
	say(process.stdout, `Dry run: ${count(planned.transcriptsRead, "transcript")} read, ${what}; nothing written.`);
	for (const notice of planned.plan.notices) sayLine(process.stdout, `Note: ${notice}`);
	for (const problem of problems) sayLine(process.stderr, `ai-memory: ${problem}`);
	return problems.length > 0 ? 1 : 0;
}

/** ` writing <path>`, when the error names one. */
function pathOf(error: unknown): string {
	const path = (error as { path?: unknown }).path;
	return typeof path === "string" ? ` writing ${path}` : "";
}

export { loadSettings };
