import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import timers from "node:timers";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentId } from "../../src/core/transcript/agents";
import { serializeSession } from "../../src/core/transcript/session-model";
import { openTranscriptIndex } from "../../src/node/transcript-index";
import type { AgentRoots } from "../../src/node/transcript-source";
import { SETTLE_MS } from "../../src/node/transcript-tail";

/**
 * A transcript whose last line has no final newline, through every agent's reader (the scan, the
 * tail reader, the agent's fold): once the file has settled, the model is the one the file with
 * its newline gives; when it has just changed, the read waits until it has settled and takes it.
 */
const repo = resolve(__dirname, "..", "..");
const fixtures = join(repo, "test", "fixtures", "agents");
const homes: [AgentId, string][] = [
	["claude-code", join(repo, "examples", "claude-projects")],
	["codex", join(fixtures, "codex", "0.171.0", "b-tool-call")],
	["gemini-cli", join(fixtures, "gemini-cli", "0.61.0", "home")],
	["copilot-cli", join(fixtures, "copilot-cli", "1.0.102", "b-tool-calls")],
];

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "last-line-"));
});
afterEach(() => {
	vi.restoreAllMocks();
	syncBuiltinESMExports();
	rmSync(dir, { recursive: true, force: true });
});

function copyHome(agent: AgentId, from: string, name: string): { roots: AgentRoots; transcript: string } {
	const home = join(dir, name);
	cpSync(from, home, { recursive: true });
	const files = (readdirSync(home, { recursive: true }) as string[]).map((f) => join(home, f)).filter((p) => p.endsWith(".jsonl") && statSync(p).isFile());
	const transcript = files.sort((a, b) => statSync(b).size - statSync(a).size || a.localeCompare(b))[0]!;
	return { roots: { [agent]: home }, transcript };
}

async function modelOf(roots: AgentRoots, agent: AgentId, transcript: string) {
	const index = openTranscriptIndex(agent === "claude-code" ? roots["claude-code"]! : join(dir, "none"), undefined, undefined, undefined, () => roots);
	const result = await index.refresh();
	const entry = result.updated.find((e) => e.file.path === transcript);
	if (!entry) throw new Error(`${transcript} was not read`);
	return { index, entry, model: serializeSession(entry.model) };
}

const old = new Date(Date.now() - 60_000);

describe.each(homes)("%s: a last line without its newline", (agent, from) => {
	it("is read once the file has stopped growing: the same model as with the newline", async () => {
		const whole = copyHome(agent, from, "whole");
		const cut = copyHome(agent, from, "cut");
		const text = readFileSync(cut.transcript, "utf8");
		expect(text.endsWith("\n")).toBe(true);
		writeFileSync(cut.transcript, text.replace(/\r?\n$/, ""));
		utimesSync(cut.transcript, old, old);
		const expected = (await modelOf(whole.roots, agent, whole.transcript)).model;
		expect((await modelOf(cut.roots, agent, cut.transcript)).model).toEqual(expected);
	});

	it("written a moment ago, it is waited for until the file has settled, and taken by the same read (a sync right after the write tells it)", async () => {
		const cut = copyHome(agent, from, "cut");
		const text = readFileSync(cut.transcript, "utf8").replace(/\r?\n$/, "");
		const lastLine = text.slice(text.lastIndexOf("\n") + 1);
		writeFileSync(cut.transcript, text.slice(0, text.length - lastLine.length));
		utimesSync(cut.transcript, old, old);
		const withoutLast = (await modelOf(cut.roots, agent, cut.transcript)).model;
		// The whole line, just written: taken once the file has not changed for SETTLE_MS.
		writeFileSync(cut.transcript, text);
		const started = Date.now();
		const { entry, model } = await modelOf(cut.roots, agent, cut.transcript);
		expect(Date.now() - started).toBeGreaterThanOrEqual(SETTLE_MS / 2);
		expect(entry.cursor.settling).toBeUndefined();
		const whole = copyHome(agent, from, "whole");
		const expected = (await modelOf(whole.roots, agent, whole.transcript)).model;
		expect(model).toEqual(expected);
		// The last line counts in the model: the test would see it missing.
		expect(withoutLast).not.toEqual(expected);
	});

	it("the wait holds when a timer fires early (a busy machine): the line is taken by the same read all the same", async () => {
		const cut = copyHome(agent, from, "cut");
		const text = readFileSync(cut.transcript, "utf8").replace(/\r?\n$/, "");
		writeFileSync(cut.transcript, text);
		// Each timer fires at half its time, as one counted from a stale loop time does.
		const plain = timers.setTimeout;
		vi.spyOn(timers, "setTimeout").mockImplementation(((done: () => void, ms?: number) => plain(done, (ms ?? 0) / 2)));
		syncBuiltinESMExports();
		const { entry } = await modelOf(cut.roots, agent, cut.transcript);
		expect(entry.cursor.settling).toBeUndefined();
	});
});
