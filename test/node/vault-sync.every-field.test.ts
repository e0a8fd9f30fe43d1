import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PROJECT, migrateSettings } from "../../src/core/settings";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";

/**
 * A secret and a terminal's escapes put into every free-text field of every line and file of every
 * agent's recordings (Claude Code's examples, Codex, Gemini CLI, Copilot CLI, opencode's JSON
 * storage, Aider's history), all synced into one vault: no piece of the secret may reach a note,
 * the state or CLAUDE.md, and no control character a note or CLAUDE.md.
 * The fields that name the session's identity (its folder) and the records' structure are left
 * alone: they are not redacted by design, and a secret there would change what is read.
 */
const FIXTURES = join(__dirname, "..", "fixtures", "agents");
const SECRET = "ghp_Zq8Xw2Vr5Ty7Ub3Nm9Lk1Jh4Gf6Ds0Ap2Qe7";
/** Several times over, so that some text the fold keeps only the start of is cut inside one. */
const SECRETS = `${Array.from({ length: 7 }, () => SECRET).join(" ")} \u001b]0;retitled\u0007\u0000\u202eexe.txt\u202c`;
/** What `printable` drops: no note or CLAUDE.md may hold one. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** A piece of it long enough to be found anywhere it was kept, even cut short. */
const PIECE = SECRET.slice(4, 9);
const STRUCTURE = /^(type|role|id|.*_id|.*Id|.*ID|uuid|parentUuid|leafUuid|timestamp|.*[tT]ime.*|status|kind|operation|subtype|cwd|directory|worktree|version|.*_version|source|originator|mimeType|encoding|\$rewindTo|event|level|projectHash|ordinal|agent|mode|stop_reason|model_provider|created|updated|start|end|completed)$/;

function taint(value: unknown, key?: string): unknown {
	if (typeof value === "string") return STRUCTURE.test(key ?? "") || value.length < 3 ? value : `${value} ${SECRETS}`;
	if (Array.isArray(value)) return value.map((v) => taint(v, key));
	if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, taint(v, k)]));
	return value;
}

function taintTree(dir: string): void {
	for (const f of readdirSync(dir, { recursive: true }) as string[]) {
		const path = join(dir, f);
		if (!statSync(path).isFile()) continue;
		const text = readFileSync(path, "utf8");
		if (f.endsWith(".jsonl")) {
			writeFileSync(path, text.split("\n").map((line) => { try { return line.trim() === "" ? line : JSON.stringify(taint(JSON.parse(line))); } catch { return line; } }).join("\n"));
		} else if (f.endsWith(".json") && !f.endsWith("projects.json")) {
			try {
				writeFileSync(path, JSON.stringify(taint(JSON.parse(text))));
			} catch {
				// Not JSON: left as it is.
			}
		} else if (f.endsWith(".md")) {
			writeFileSync(path, text.split("\n").map((l) => (l.startsWith("# aider chat started") || l.trim() === "" ? l : `${l} ${SECRETS}`)).join("\n"));
		}
	}
}

let root: string;
let project: string;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "vault-every-field-"));
	project = join(root, "project");
	mkdirSync(project);
	cpSync(join(__dirname, "..", "..", "examples", "claude-projects"), join(root, "claude", "projects"), { recursive: true });
	for (const version of readdirSync(join(FIXTURES, "codex"))) for (const run of readdirSync(join(FIXTURES, "codex", version))) cpSync(join(FIXTURES, "codex", version, run), join(root, "codex"), { recursive: true });
	cpSync(join(FIXTURES, "gemini-cli", "0.61.0", "home"), join(root, "gemini"), { recursive: true });
	for (const run of readdirSync(join(FIXTURES, "copilot-cli", "1.0.102"))) if (statSync(join(FIXTURES, "copilot-cli", "1.0.102", run)).isDirectory()) cpSync(join(FIXTURES, "copilot-cli", "1.0.102", run), join(root, "copilot"), { recursive: true });
	cpSync(join(FIXTURES, "opencode", "1.1.65", "data"), join(root, "opencode"), { recursive: true });
	cpSync(join(FIXTURES, "aider", "0.86", "project", ".aider.chat.history.md"), join(project, ".aider.chat.history.md"));
	for (const tree of ["claude", "codex", "gemini", "copilot", "opencode"]) taintTree(join(root, tree));
	taintTree(project);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a secret and terminal escapes in every field of every agent's sessions", () => {
	it("the secret reaches no note, no file of the state and no CLAUDE.md, not even a piece of it; no NUL, escape or bidirectional override reaches a note or CLAUDE.md", async () => {
		const notes = new MemoryNotes();
		const settings = { ...migrateSettings({}).settings, agents: ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "aider"] as const, projects: [{ ...DEFAULT_PROJECT, path: project, memorySharing: false }] };
		const report = await new VaultSync(join(root, "claude", "projects"), join(root, "state"), notes, {
			roots: () => ({ "claude-code": join(root, "claude", "projects"), codex: join(root, "codex"), "gemini-cli": join(root, "gemini"), "copilot-cli": join(root, "copilot"), opencode: join(root, "opencode"), aider: [project] }),
		}).run({ ...settings, agents: [...settings.agents] });
		expect(report.errors).toEqual([]);
		// Every agent was read, and its sessions written.
		const agents = new Set([...notes.files.values()].map((t) => /\nagent: (\S+)\n/.exec(t)?.[1]).filter(Boolean));
		expect([...agents].sort()).toEqual(["aider", "claude-code", "codex", "copilot-cli", "gemini-cli", "opencode"]);
		expect([...notes.files.values()].join("\n")).toContain("[redacted:github-token]");
		for (const [path, text] of notes.files) {
			expect(text.includes(PIECE), path).toBe(false);
			expect(CONTROL.exec(text)?.[0], path).toBeUndefined();
		}
		for (const f of readdirSync(join(root, "state"), { recursive: true }) as string[]) {
			const path = join(root, "state", f);
			if (statSync(path).isFile()) expect(readFileSync(path, "utf8").includes(PIECE), f).toBe(false);
		}
		const claudeMd = readFileSync(join(project, "CLAUDE.md"), "utf8");
		expect(claudeMd.includes(PIECE)).toBe(false);
		expect(CONTROL.exec(claudeMd)?.[0]).toBeUndefined();
	});
});
