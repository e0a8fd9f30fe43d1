import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect } from "vitest";

/**
 * The built CLI and the vault it writes, as the other agents' e2e tests look at them: runs of
 * `ai-memory`, the notes, a note of one session, the context block and its entry headings.
 */
const cli = join(resolve(__dirname, "..", "..", ".."), "dist", "cli.cjs");
export const BEGIN = "<!-- AUTO-CONTEXT:BEGIN -->";
export const END = "<!-- AUTO-CONTEXT:END -->";
export const NOTES = "AI Conversations";

export interface SyncReport {
	transcriptsRead: number;
	notesWritten: string[];
	contextWritten: string[];
	errors: string[];
}

/** One run of the built CLI, which must succeed; its stdout. */
export function cliRun(args: string[], env: NodeJS.ProcessEnv = process.env): string {
	const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env });
	expect(r.status, `ai-memory ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
	return r.stdout;
}

/** One `ai-memory sync --json`, reading Claude Code from `<home>/.claude` and the other agents where `env` says. */
export function syncVault(vault: string, home: string, env: Record<string, string>, project?: string): SyncReport {
	const args = ["sync", "--vault", vault, "--claude-dir", join(home, ".claude"), "--json", ...(project ? ["--project", project] : [])];
	return JSON.parse(cliRun(args, { ...process.env, ...env })) as SyncReport;
}

/** What lies between the marker lines. */
export function blockOf(file: string): string {
	const from = file.indexOf(BEGIN);
	const to = file.indexOf(END, from);
	expect(from, "no AUTO-CONTEXT block").toBeGreaterThanOrEqual(0);
	expect(to).toBeGreaterThan(from);
	return file.slice(from + BEGIN.length, to);
}

/** Every `.md` note under the vault's notes folder (vault-relative, `/`-separated) with its text. */
export function notesIn(vault: string): Array<{ path: string; text: string }> {
	const dir = join(vault, NOTES);
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true })
		.map((f) => join(dir, String(f)))
		.filter((p) => p.endsWith(".md") && statSync(p).isFile())
		.map((p) => ({ path: relative(vault, p).split("\\").join("/"), text: readFileSync(p, "utf8") }));
}

/** The session note of one session id (its front matter starts with `session_id:`). */
export function noteOf(vault: string, sessionId: string): { path: string; text: string } {
	const found = notesIn(vault).filter((n) => n.text.startsWith(`---\nsession_id: ${sessionId}\n`));
	expect(found.map((n) => n.path), `one note for session ${sessionId}`).toHaveLength(1);
	return found[0]!;
}

export const agentOfNote = (note: string) => /\nagent: (\S+)\n/.exec(note)?.[1];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The block's heading for one session: `### YYYY-MM-DD — <title> (<agent>)`. */
export const entryHeading = (title: string, agent: string) => new RegExp(`### \\d{4}-\\d\\d-\\d\\d — ${escape(title)} \\(${escape(agent)}\\)\\r?\\n`);
