import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";

/** `npm run demo` (scripts/demo.mjs with the built CLI), into a temporary folder: run twice, an edit made between the runs stays. */
const repo = resolve(__dirname, "..", "..");
let demo: string;

const runDemo = (...args: string[]) => spawnSync(process.execPath, [join(repo, "scripts", "demo.mjs"), ...args], { encoding: "utf8", env: { ...process.env, AI_MEMORY_DEMO_DIR: demo } });
const files = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, f)).filter((p) => statSync(p).isFile() && !p.includes(`${join("state", "")}`) && !p.includes(".git"));

beforeAll(() => {
	buildCli();
	demo = mkdtempSync(join(tmpdir(), "demo-"));
});
afterAll(() => rmSync(demo, { recursive: true, force: true }));

describe("npm run demo", () => {
	it("syncs the examples, then changes nothing when run again, and keeps an edit made in the demo", () => {
		const first = runDemo();
		expect(first.status, first.stderr).toBe(0);
		expect(first.stdout).toMatch(/^Synced 5 transcripts: 6 notes written, 1 CLAUDE\.md updated, \d+ memory files written\.\n/);
		expect(first.stdout).toContain("Run it again: nothing changes");

		const index = join(demo, "vault", "AI Conversations", "shop-api", "shop-api.md");
		appendFileSync(index, "My own line below the generated part.\n");
		const claudeMd = join(demo, "shop-api", "CLAUDE.md");
		writeFileSync(claudeMd, readFileSync(claudeMd, "utf8").replace("Plain Node, no framework.", "Plain Node, no framework, ever."));
		const fact = join(demo, "vault", "AI Memory", "shop-api", "use-pnpm.md");
		writeFileSync(fact, `${readFileSync(fact, "utf8")}Also in CI.\n`);
		const stamps = new Map(files(demo).map((p) => [p, statSync(p).mtimeMs]));

		const second = runDemo();
		expect(second.status, second.stderr).toBe(0);
		// The fact edited in the vault goes to Claude Code's copy (the memory is shared both ways); nothing else is written.
		expect(second.stdout.split("\n")[0]).toBe("Synced: 0 notes written, 1 memory file written.");
		expect(readFileSync(index, "utf8")).toMatch(/My own line below the generated part\.\n$/);
		expect(readFileSync(claudeMd, "utf8")).toContain("Plain Node, no framework, ever.");
		expect(readFileSync(fact, "utf8")).toContain("Also in CI.");
		const changed = files(demo).filter((p) => stamps.get(p) !== statSync(p).mtimeMs);
		expect(changed.every((p) => p.includes(join("claude", "projects")) && p.includes("memory"))).toBe(true);

		const third = runDemo();
		expect(third.stdout.split("\n")[0]).toBe("Nothing to sync: no transcript changed since the last sync, nothing written.");

		expect(runDemo("--fresh").status).toBe(0);
		expect(readFileSync(index, "utf8")).not.toContain("My own line");
		expect(existsSync(fact)).toBe(true);
		// Four runs of the demo, each a process of its own: seconds on a loaded machine.
	}, 30_000);
});
