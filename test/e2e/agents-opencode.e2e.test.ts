/**
 * opencode and Claude Code share one project history, end to end with BOTH real clients: opencode
 * 1.18.33 (`opencode run`, against the Chat Completions stub in `harness/opencode-stub.ts`) and
 * Claude Code 2.1.337 (against the Messages API stub), with the built CLI syncing in between. Proves:
 * 1. opencode → Claude Code: an opencode session (a `read` call of README.md, then a reply), which
 *    opencode keeps in its SQLite database (WAL mode, never checkpointed on exit), becomes a note
 *    with `agent: opencode` in the project's folder, the project's CLAUDE.md block names it
 *    ("… (opencode)"), and the next real Claude Code session's request holds that title. A second
 *    opencode session goes on meanwhile; the sync after it reads only the session that changed.
 *    While opencode writes, our reader reads its database again and again: every read is whole
 *    and consistent, or says it must be read again; none fails otherwise.
 * 2. Claude Code → opencode: with `projects add --also AGENTS.md`, the sync writes the block into the
 *    project's AGENTS.md (the hand-written part kept), and the next real opencode request's system
 *    prompt holds it (opencode sends AGENTS.md as `Instructions from: <path>` and the file).
 *
 * opencode's folders are given the way a person's machine has them: `$XDG_DATA_HOME` (its
 * `opencode/` data folder; the e2e config points it nowhere by default).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldOpencodeLines } from "../../src/core/transcript/opencode-fold";
import { createSession } from "../../src/core/transcript/session-model";
import { BATCH_SIZE, listSessions, sessionsLines } from "../../src/node/opencode-db";
import { closeDatabases, DatabaseChangedError, readDatabase } from "../../src/node/sqlite-reader";
import {
	agentOfNote,
	blockOf,
	buildCli,
	claudeSessionInto,
	ensureClaudeCode,
	ensureOpencode,
	entryHeading,
	makeTempDir,
	NOTES,
	noteOf,
	opencodeCall,
	opencodeDirs,
	requestText,
	runClaude,
	runOpencode,
	startOpencodeStub,
	startStub,
	syncVault,
	systemTextOf,
	type OpencodeStub,
	type Stub,
} from "./harness/index.js";

describe("opencode and Claude Code share the project's history through its context files", () => {
	let claudeStub: Stub;
	let opencodeStub: OpencodeStub;
	let root: string;
	beforeAll(async () => {
		ensureClaudeCode();
		ensureOpencode();
		buildCli();
		claudeStub = await startStub();
		opencodeStub = await startOpencodeStub();
		root = makeTempDir("agents-opencode-e2e-");
	});
	afterAll(async () => {
		await claudeStub?.close();
		await opencodeStub?.close();
		await closeDatabases();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	it("an opencode session becomes a note and a CLAUDE.md entry, and the next Claude Code session reads it", async () => {
		const project = join(root, "work", "tamarind");
		const home = join(root, "home-1");
		const dirs = opencodeDirs(join(root, "opencode-1"));
		const env = { XDG_DATA_HOME: dirs.data };
		const db = join(dirs.data, "opencode", "opencode.db");
		const vault = join(root, "vault-1");
		mkdirSync(project, { recursive: true });
		mkdirSync(vault);
		writeFileSync(join(project, "README.md"), "# Tamarind\n\nTamarind onboards new staff: accounts, laptops, badges.\n");
		const title = "Summarize the README of the Tamarind service";
		opencodeStub.setScript({
			titleReply: title,
			rules: [
				{ match: "Summarize the README", steps: [[{ type: "reasoning", text: "Read it first." }, opencodeCall("read", { filePath: join(project, "README.md") })], "Tamarind onboards new staff: it sets up their accounts, laptops and badges."] },
				{ match: "Count the badges", steps: ["There is one badge per person."] },
			],
		});

		// --- the real opencode session, while our reader reads its database again and again.
		let reading = true;
		const reads = { whole: 0, again: 0, failed: [] as string[] };
		const poll = (async () => {
			while (reading) {
				try {
					await readDatabase(db, async (d) => {
						const listed = await listSessions(d);
						const rows = await sessionsLines(d, listed.map((s) => s.id).slice(0, BATCH_SIZE));
						for (const s of listed.slice(0, BATCH_SIZE)) {
							const model = createSession(s.id, undefined, false, "opencode");
							foldOpencodeLines(model, rows.get(s.id)?.().lines ?? []);
							if (model.counts.malformed > 0 || model.sessionIds[0] !== s.id) throw new Error(`bad rows: ${JSON.stringify(model.malformedLines)}`);
						}
					});
					reads.whole++;
				} catch (error) {
					if (error instanceof DatabaseChangedError) reads.again++;
					else if (!/ENOENT/.test(String(error))) reads.failed.push(String(error));
				}
				await new Promise((r) => setTimeout(r, 20));
			}
		})();
		const first = await runOpencode({ dirs, cwd: project, args: [title], stub: opencodeStub });
		reading = false;
		await poll;
		expect(first.exitCode, first.stderr).toBe(0);
		expect(first.sessionId).toMatch(/^ses_/);
		expect(reads.failed).toEqual([]);
		expect(reads.whole).toBeGreaterThan(0);
		const main = first.requests.filter((r) => r.kind === "main");
		expect(main.map((r) => [r.rule, r.step])).toEqual([
			[0, 0],
			[0, 1],
		]);
		// The tool really ran: the file's text is what the second request sends back.
		expect(JSON.stringify(main[1]!.body)).toContain("Tamarind onboards new staff: accounts, laptops, badges.");
		const second = await runOpencode({ dirs, cwd: project, args: ["Count the badges"], stub: opencodeStub });
		expect(second.exitCode, second.stderr).toBe(0);

		// --- sync: the session's note, with its agent, its tool call and its cost, in the project's folder.
		const report = syncVault(vault, home, env, project);
		expect(report.errors).toEqual([]);
		expect(report.contextWritten).toEqual([join(project, "CLAUDE.md")]);
		const note = noteOf(vault, first.sessionId!);
		expect(note.path.startsWith(`${NOTES}/tamarind/`), note.path).toBe(true);
		expect(agentOfNote(note.text)).toBe("opencode");
		expect(note.text).toContain(title);
		expect(note.text).toContain("\ntool_calls: 1\n");
		expect(note.text).toContain("Read: README.md");
		expect(note.text).toMatch(/\ncost_usd: 0\.\d+\n/);
		const block = blockOf(readFileSync(join(project, "CLAUDE.md"), "utf8"));
		expect(block).toMatch(entryHeading(title, "opencode"));

		// --- the first session goes on (`--session`): the next sync reads that session alone.
		const more = await runOpencode({ dirs, cwd: project, args: ["--session", first.sessionId!, "Count the badges"], stub: opencodeStub });
		expect(more.exitCode, more.stderr).toBe(0);
		const grown = syncVault(vault, home, env, project);
		expect(grown).toMatchObject({ transcriptsRead: 1, errors: [] });
		expect(grown.notesWritten).toContain(noteOf(vault, first.sessionId!).path);
		expect(grown.notesWritten).not.toContain(noteOf(vault, second.sessionId!).path);
		expect(noteOf(vault, first.sessionId!).text).toContain("There is one badge per person.");
		expect(syncVault(vault, home, env, project)).toMatchObject({ transcriptsRead: 0, notesWritten: [], errors: [] });

		// --- the next real Claude Code session receives that entry through CLAUDE.md.
		claudeStub.setScript({ rules: [{ match: "where we left off", steps: ["The README was summarized last time."] }] });
		const claude = await runClaude({ home, cwd: project, stub: claudeStub, prompt: "Remind me where we left off" });
		expect(claude.exitCode, claude.stderr).toBe(0);
		const claudeRequests = claudeStub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === claude.sessionId);
		expect(claudeRequests.length).toBeGreaterThan(0);
		for (const req of claudeRequests) expect(requestText(req)).toMatch(entryHeading(title, "opencode"));
	});

	it("a Claude Code session reaches the next opencode session through AGENTS.md", async () => {
		const dirs = opencodeDirs(join(root, "opencode-2"));
		const env = { XDG_DATA_HOME: dirs.data };
		// --- a real Claude Code session, then sync: the block goes into CLAUDE.md and AGENTS.md.
		const { project, home, vault, handWritten, title, block } = await claudeSessionInto({ root, file: "AGENTS.md", agent: "opencode", claudeStub, env });

		// --- the next real opencode session: every main request's system prompt carries AGENTS.md, block and hand-written part.
		opencodeStub.setScript({ titleReply: "Continue the retry work", rules: [{ match: "retry work", steps: ["The retry policy from last time is in src/retry.ts; continuing from there."] }] });
		const opencode = await runOpencode({ dirs, cwd: project, args: ["Continue the retry work"], stub: opencodeStub });
		expect(opencode.exitCode, opencode.stderr).toBe(0);
		const main = opencode.requests.filter((r) => r.kind === "main");
		expect(main.length).toBeGreaterThan(0);
		for (const req of main) {
			const system = systemTextOf(req.body);
			expect(system).toContain(`Instructions from: ${join(project, "AGENTS.md")}`);
			expect(system).toContain("opencode: run `npm test` before you finish.");
			expect(system).toContain(block.trim());
			expect(system).toMatch(entryHeading(title, "Claude Code"));
		}

		// --- the sync after it adds the opencode session to both files, newest first.
		const after = syncVault(vault, home, env);
		expect(after.errors).toEqual([]);
		expect(agentOfNote(noteOf(vault, opencode.sessionId!).text)).toBe("opencode");
		const next = readFileSync(join(project, "AGENTS.md"), "utf8");
		expect(next.startsWith(handWritten)).toBe(true);
		const nextBlock = blockOf(next);
		expect(nextBlock).toMatch(entryHeading("Continue the retry work", "opencode"));
		expect(nextBlock).toMatch(entryHeading(title, "Claude Code"));
		expect(nextBlock.indexOf("Continue the retry work")).toBeLessThan(nextBlock.indexOf(title));
		expect(nextBlock).toBe(blockOf(readFileSync(join(project, "CLAUDE.md"), "utf8")));
	});
});
