import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { blockOf, cliRun, entryHeading, syncVault } from "./agent-vault.js";
import { runClaude } from "./run-claude.js";
import { text, toolUse, type Stub } from "./stub-server.js";

export interface ClaudeFirst {
	project: string;
	home: string;
	vault: string;
	/** The lines written by hand into `file` before any sync. */
	handWritten: string;
	/** The Claude Code session's prompt, the title of its entry. */
	title: string;
	/** The context block as `file` holds it after the sync. */
	block: string;
}

/**
 * The first half of "a Claude Code session reaches the next session of another agent": a project
 * `root/work/quince` enabled with `file` (AGENTS.md, GEMINI.md) beside CLAUDE.md, `file` holding
 * a hand-written line for `agent`, one real Claude Code session in it, then a sync. Checks that the
 * same block went into both files, after the hand-written part.
 * @param env where the sync finds the other agent's sessions (its home), as `syncVault` takes it.
 */
export async function claudeSessionInto(o: { root: string; file: string; agent: string; claudeStub: Stub; env: Record<string, string> }): Promise<ClaudeFirst> {
	const project = join(o.root, "work", "quince");
	const home = join(o.root, "home-2");
	const vault = join(o.root, "vault-2");
	mkdirSync(project, { recursive: true });
	mkdirSync(vault);
	const handWritten = `# quince\n\n${o.agent}: run \`npm test\` before you finish.\n`;
	writeFileSync(join(project, o.file), handWritten);
	cliRun(["projects", "add", project, "--vault", vault, "--also", o.file]);

	const title = "Add the Quince retry policy to the HTTP client";
	o.claudeStub.setScript({
		rules: [
			{
				match: "Quince retry policy",
				steps: [[text("Adding exponential backoff."), toolUse("Write", { file_path: join(project, "src", "retry.ts"), content: "export const MAX_RETRIES = 4;\n" })], "Requests now retry up to 4 times with exponential backoff (src/retry.ts)."],
			},
		],
	});
	const claude = await runClaude({ home, cwd: project, stub: o.claudeStub, prompt: title });
	expect(claude.exitCode, claude.stderr).toBe(0);
	const report = syncVault(vault, home, o.env);
	expect(report.errors).toEqual([]);
	expect([...report.contextWritten].sort()).toEqual([join(project, "CLAUDE.md"), join(project, o.file)].sort());
	const written = readFileSync(join(project, o.file), "utf8");
	expect(written.startsWith(handWritten)).toBe(true);
	const block = blockOf(written);
	expect(block).toMatch(entryHeading(title, "Claude Code"));
	expect(block).toBe(blockOf(readFileSync(join(project, "CLAUDE.md"), "utf8")));
	return { project, home, vault, handWritten, title, block };
}
