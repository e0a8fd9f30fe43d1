/**
 * Codex CLI and Claude Code share one project history, end to end with BOTH real clients: Codex CLI
 * 0.171.0 (`codex exec`, against the Responses API stub in `harness/codex-stub.ts`) and Claude Code
 * 2.1.337 (against the Messages API stub), with the built CLI syncing in between. Proves:
 * 1. Codex → Claude Code: a Codex session (a `cat README.md` shell call, then a reply) becomes a note
 *    with `agent: codex` in the project's folder, the project's CLAUDE.md block names it
 *    ("… (Codex)"), and the next real Claude Code session's request to the model holds that title.
 * 2. Claude Code → Codex: with `projects add --also AGENTS.md`, the sync writes the same block into
 *    the project's AGENTS.md (the hand-written part kept), and the next real Codex session's
 *    requests hold the Claude Code session's title in the AGENTS.md message Codex sends; the sync
 *    after it adds that Codex session to both files.
 *
 * Each agent's folder is given the way a person's machine has it: Claude Code's with `--claude-dir`,
 * Codex's with `$CODEX_HOME` (the e2e config points it nowhere by default).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	agentsMdInstructions,
	buildCli,
	codexShell,
	ensureClaudeCode,
	ensureCodex,
	makeCodexHome,
	makeTempDir,
	requestText,
	runClaude,
	runCodex,
	startCodexStub,
	startStub,
	type CodexStub,
	type Stub,
	agentOfNote,
	BEGIN,
	blockOf,
	claudeSessionInto,
	END,
	entryHeading,
	NOTES,
	noteOf,
	syncVault,
} from "./harness/index.js";

describe("Codex CLI and Claude Code share the project's history through its context files", () => {
	let claudeStub: Stub;
	let codexStub: CodexStub;
	let root: string;
	const codexHomes: string[] = [];
	beforeAll(async () => {
		ensureClaudeCode();
		ensureCodex();
		buildCli();
		claudeStub = await startStub();
		codexStub = await startCodexStub();
		root = makeTempDir("agents-e2e-");
	});
	afterAll(async () => {
		await claudeStub?.close();
		await codexStub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
		for (const h of codexHomes) rmSync(h, { recursive: true, force: true });
	});
	const newCodexHome = (): string => {
		const h = makeCodexHome();
		codexHomes.push(h);
		return h;
	};

	it("a Codex session becomes a note and a CLAUDE.md entry, and the next Claude Code session reads it", async () => {
		const project = join(root, "work", "tamarind");
		const home = join(root, "home-1");
		const codexHome = newCodexHome();
		const vault = join(root, "vault-1");
		mkdirSync(project, { recursive: true });
		mkdirSync(vault);
		writeFileSync(join(project, "README.md"), "# Tamarind\n\nTamarind onboards new staff: accounts, laptops, badges.\n");
		const title = "Summarize the README of the Tamarind service";
		codexStub.setScript({
			rules: [{ match: "Summarize the README", steps: [[codexShell("cat README.md")], "Tamarind onboards new staff: it sets up their accounts, laptops and badges."] }],
		});

		// --- the real Codex session: one shell call, its output back to the model, then the reply.
		const codex = await runCodex({ codexHome, cwd: project, stub: codexStub, prompt: title });
		expect(codex.exitCode, codex.stderr).toBe(0);
		expect(codex.rolloutPath, `no rollout for ${codex.sessionId} in ${codexHome}`).toBeTruthy();
		const codexRequests = codexStub.requestsOf(codex.sessionId);
		expect(codexRequests.map((r) => [r.rule, r.step])).toEqual([
			[0, 0],
			[0, 1],
		]);
		// The command really ran: its output is what the second request sends back.
		expect(JSON.stringify(codexRequests[1]!.body)).toContain("Tamarind onboards new staff: accounts, laptops, badges.");

		// --- sync: the session's note, with its agent and its tool call, in the project's folder.
		const report = syncVault(vault, home, { CODEX_HOME: codexHome }, project);
		expect(report.errors).toEqual([]);
		expect(report.contextWritten).toEqual([join(project, "CLAUDE.md")]);
		const note = noteOf(vault, codex.sessionId!);
		expect(note.path.startsWith(`${NOTES}/tamarind/`), note.path).toBe(true);
		expect(report.notesWritten).toContain(note.path);
		expect(agentOfNote(note.text)).toBe("codex");
		expect(note.text).toContain(title);
		expect(note.text).toContain("cat README.md");
		const block = blockOf(readFileSync(join(project, "CLAUDE.md"), "utf8"));
		expect(block).toMatch(entryHeading(title, "Codex"));

		// --- the next real Claude Code session receives that entry through CLAUDE.md.
		claudeStub.setScript({ rules: [{ match: "where we left off", steps: ["The README was summarized last time."] }] });
		const claude = await runClaude({ home, cwd: project, stub: claudeStub, prompt: "Remind me where we left off" });
		expect(claude.exitCode, claude.stderr).toBe(0);
		const claudeRequests = claudeStub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === claude.sessionId);
		expect(claudeRequests.length).toBeGreaterThan(0);
		for (const req of claudeRequests) {
			expect(requestText(req)).toContain(block.trim());
			expect(requestText(req)).toMatch(entryHeading(title, "Codex"));
		}

		// --- and the two agents' sessions are one project history: both notes in its folder, both entries.
		const after = syncVault(vault, home, { CODEX_HOME: codexHome }, project);
		expect(after.errors).toEqual([]);
		const claudeNote = noteOf(vault, claude.sessionId!);
		expect(agentOfNote(claudeNote.text)).toBe("claude-code");
		expect(claudeNote.path.startsWith(`${NOTES}/tamarind/`), claudeNote.path).toBe(true);
		const both = blockOf(readFileSync(join(project, "CLAUDE.md"), "utf8"));
		expect(both).toMatch(entryHeading("Remind me where we left off", "Claude Code"));
		expect(both).toMatch(entryHeading(title, "Codex"));
	});

	it("a Claude Code session reaches the next Codex session through AGENTS.md", async () => {
		const codexHome = newCodexHome();
		// --- a real Claude Code session, then sync: the block goes into CLAUDE.md and AGENTS.md.
		const { project, home, vault, handWritten, title, block } = await claudeSessionInto({ root, file: "AGENTS.md", agent: "Codex", claudeStub, env: { CODEX_HOME: codexHome } });

		// --- the next real Codex session: every request carries AGENTS.md, block and hand-written part.
		codexStub.setScript({ rules: [{ match: "retry work", steps: ["The retry policy from last time is in src/retry.ts; continuing from there."] }] });
		const codex = await runCodex({ codexHome, cwd: project, stub: codexStub, prompt: "Continue the retry work" });
		expect(codex.exitCode, codex.stderr).toBe(0);
		const codexRequests = codexStub.requestsOf(codex.sessionId);
		expect(codexRequests.length).toBeGreaterThan(0);
		for (const req of codexRequests) {
			const sent = agentsMdInstructions(req.body);
			expect(sent, "no AGENTS.md message in the request").toBeDefined();
			expect(sent).toContain(`# AGENTS.md instructions for ${project}`);
			expect(sent).toContain("Codex: run `npm test` before you finish.");
			// Codex sends the file as it is, marker comments and all (Claude Code drops those lines).
			expect(sent).toContain(`${BEGIN}${block}${END}`);
			expect(sent).toMatch(entryHeading(title, "Claude Code"));
		}

		// --- the sync after it adds the Codex session to both files, newest first.
		const after = syncVault(vault, home, { CODEX_HOME: codexHome });
		expect(after.errors).toEqual([]);
		expect(agentOfNote(noteOf(vault, codex.sessionId!).text)).toBe("codex");
		const next = readFileSync(join(project, "AGENTS.md"), "utf8");
		expect(next.startsWith(handWritten)).toBe(true);
		const nextBlock = blockOf(next);
		expect(nextBlock).toMatch(entryHeading("Continue the retry work", "Codex"));
		expect(nextBlock).toMatch(entryHeading(title, "Claude Code"));
		expect(nextBlock.indexOf("Continue the retry work")).toBeLessThan(nextBlock.indexOf(title));
		expect(nextBlock).toBe(blockOf(readFileSync(join(project, "CLAUDE.md"), "utf8")));
	});
});
