import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { usageDays } from "../../src/core/digest/usage-days";
import { parseTranscript } from "../fixtures/parse-transcript";
import { installOnce, npmInstall } from "../e2e/harness/npm-install";

/**
 * The usage figures the charts and cost estimates read (`usageDays`: each message id once, at its
 * last value, as the notes count tokens) against ccusage's `daily --json --offline` over the same
 * transcripts: per day, input, output, cache read and cache write tokens are equal.
 *
 * One difference is known and kept: Claude Code 2.1 copies a sub-agent's messages into the parent
 * transcript as `progress` records (`data.message.message.usage`). ccusage's daily report counts
 * those (deduplicated against the sub-agent's own file when it finds the same ids); its session
 * report does not, and neither do the notes, which count a sub-agent from its own transcript. So the
 * days that differ must be exactly days with such records; every other day is equal to the token.
 */
const REPO = join(__dirname, "..", "..");
const SOURCES = [join(REPO, "examples", "claude-projects"), join(REPO, "..", "..", "shared", "corpus"), join(REPO, "..", "shared", "corpus")].filter((d) => existsSync(d));
/**
 * ccusage is installed on first use into `.cache/` (as the e2e harness installs the clients), not
 * as a development dependency: its package names platform binaries the registry does not all hold,
 * which `npm ci` refuses. Only its JavaScript CLI is used (`--ignore-scripts`).
 */
const CCUSAGE_VERSION = "20.0.24";
const CCUSAGE = installOnce(
	join(REPO, ".cache", `ccusage-${CCUSAGE_VERSION}`),
	(dir) => {
		const cli = join(dir, "node_modules", "ccusage", "src", "cli.js");
		return existsSync(cli) ? cli : undefined;
	},
	(tmp) => npmInstall(tmp, `ccusage@${CCUSAGE_VERSION}`, () => {}),
	() => {},
	"ccusage",
);

function jsonlFiles(dir: string): string[] {
	const out: string[] = [];
	for (const name of readdirSync(dir).sort()) {
		const path = join(dir, name);
		const stat = statSync(path);
		if (stat.isDirectory()) out.push(...jsonlFiles(path));
		else if (name.endsWith(".jsonl")) out.push(path);
	}
	return out;
}

interface DayTotals {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

const work = mkdtempSync(join(tmpdir(), "ccusage-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!existsSync(CCUSAGE))("usage per day agrees with ccusage", () => {
	it("per day: input, output, cache read and cache write tokens are ccusage's", () => {
		// The same files in one Claude Code projects folder: one folder per source folder, as Claude Code lays them out.
		const claude = join(work, "claude");
		const ours = new Map<string, DayTotals>();
		const progressDays = new Set<string>();
		let files = 0;
		for (const source of SOURCES) {
			for (const file of jsonlFiles(source)) {
				const rel = relative(source, file).split(/[\\/]/);
				const target = join(claude, "projects", `${SOURCES.indexOf(source)}-${rel.slice(0, -1).join("-") || "root"}`, rel.at(-1)!);
				mkdirSync(join(target, ".."), { recursive: true });
				copyFileSync(file, target);
				files++;
				const name = rel.at(-1)!.replace(/\.jsonl$/, "");
				for (const line of readFileSync(file, "utf8").split("\n")) {
					if (!line.includes('"type":"progress"') || !line.includes('"usage":{')) continue;
					const day = /"timestamp":"(\d{4}-\d\d-\d\d)/.exec(line)?.[1];
					if (day) progressDays.add(day);
				}
				for (const d of usageDays(parseTranscript(readFileSync(file), name))) {
					const t = ours.get(d.day) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
					t.input += d.input;
					t.output += d.output;
					t.cacheRead += d.cacheRead;
					t.cacheWrite += d.cacheWrite;
					ours.set(d.day, t);
				}
			}
		}
		expect(files).toBeGreaterThan(0);
		// HOME elsewhere: ccusage reads other agents' folders under it too, and this machine's own never enter.
		const out = execFileSync(process.execPath, [CCUSAGE, "daily", "--json", "--offline"], {
			env: { PATH: process.env.PATH ?? "", HOME: join(work, "home"), CLAUDE_CONFIG_DIR: claude, TZ: process.env.TZ ?? "UTC" },
			encoding: "utf8",
			timeout: 120_000,
		});
		const theirs = new Map<string, DayTotals>();
		for (const d of (JSON.parse(out) as { daily: { period: string; inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheCreationTokens: number }[] }).daily) {
			theirs.set(d.period, { input: d.inputTokens, output: d.outputTokens, cacheRead: d.cacheReadTokens, cacheWrite: d.cacheCreationTokens });
		}
		const days = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
		const differ = days.filter((d) => JSON.stringify(ours.get(d)) !== JSON.stringify(theirs.get(d)));
		const unexplained = differ.filter((d) => !progressDays.has(d)).map((d) => ({ day: d, ours: ours.get(d), ccusage: theirs.get(d) }));
		expect(unexplained).toEqual([]);
		expect(theirs.size).toBeGreaterThan(3);
		// Printed for the README: how many days agree to the token.
		process.stdout.write(`usage per day vs ccusage: ${days.length - differ.length} of ${days.length} days equal; ${differ.length} differ, each a day with sub-agent progress records (${differ.join(", ")})\n`);
	});
});
