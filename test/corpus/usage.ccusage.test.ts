import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrateSettings } from "../../src/core/settings";
import { summarizeUsage } from "../../src/core/usage/usage-summary";
import { SessionCatalog } from "../../src/node/session-catalog";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { installOnce, npmInstall } from "../e2e/harness/npm-install";

/**
 * The per-day tokens the Sessions view and the dashboard show, as a user gets them: a real sync of
 * the transcripts into a vault, then the view's rows (the catalog the sync writes) summed per day
 * (`summarizeUsage`), against ccusage's `daily --json --offline` over the same folder. Per day,
 * input, output, cache read and cache write tokens are equal to the token.
 *
 * This holds because a message counts once per id wherever it is copied: Claude Code 2.1 copies a
 * sub-agent's messages into the parent transcript as `progress` records, which count when the
 * sub-agent's own file is missing and not again when it is there (ccusage deduplicates them too).
 * A warmup of a session that was never written counts too, apart from any session (its usage only).
 */
const REPO = join(__dirname, "..", "..");
const SOURCES = [join(REPO, "examples", "claude-projects"), join(REPO, "..", "..", "shared", "corpus"), join(REPO, "..", "shared", "corpus")].filter((d) => existsSync(d));
/**
 * ccusage is installed on first use into `.cache/` (as the e2e harness installs the clients), not
 * as a development dependency: its package names platform binaries the registry does not all hold,
 * which `npm ci` refuses. Its JavaScript launcher runs the native binary npm installs beside it
 * for this platform (an optional dependency; `--ignore-scripts` only skips install scripts).
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
	it("per day: input, output, cache read and cache write tokens are ccusage's", async () => {
		// The same files in one Claude Code projects folder: one folder per source folder, as Claude Code lays them out.
		const claude = join(work, "claude");
		let files = 0;
		for (const source of SOURCES) {
			for (const file of jsonlFiles(source)) {
				const rel = relative(source, file).split(/[\\/]/);
				// A sub-agent's file stays in its session's `subagents/` folder, where the sync links it to its parent.
				const at = rel.lastIndexOf("subagents");
				const folder = at > 0 ? rel.slice(0, at - 1) : rel.slice(0, -1);
				const target = join(claude, "projects", `${SOURCES.indexOf(source)}-${folder.join("-") || "root"}`, ...(at > 0 ? rel.slice(at - 1) : rel.slice(-1)));
				mkdirSync(join(target, ".."), { recursive: true });
				copyFileSync(file, target);
				files++;
			}
		}
		await new VaultSync(join(claude, "projects"), join(work, "state"), new MemoryNotes()).run(migrateSettings({}).settings);
		const ours = new Map<string, DayTotals>();
		const catalog = await new SessionCatalog(join(work, "state")).rows();
		for (const d of summarizeUsage(catalog.sessions, {}, catalog.usageOnly).tokens) {
			const t = ours.get(d.day) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
			t.input += d.input;
			t.output += d.output;
			t.cacheRead += d.cacheRead;
			t.cacheWrite += d.cacheWrite;
			ours.set(d.day, t);
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
		// One difference is known, worked out here from the transcripts on their own: a sub-agent message
		// that ccusage counts at the value of the parent's `progress` copy, written while the reply
		// streamed, where the sub-agent's own file has the final value (ours). Of two lines with one
		// `messageId:requestId`, ccusage keeps the one that is not a sidechain line whatever their
		// counts, and the copy carries no `isSidechain` while the sub-agent's lines say true. Warmups of
		// sessions never written (`agent-*.jsonl`, prompt "Warmup", no `<session>.jsonl`) count in both,
		// and are summed here to say so.
		const known = knownDifferences(join(claude, "projects"));
		const days = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
		const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
		const unexplained = days.flatMap((d) => {
			const [o, t, c] = [ours.get(d) ?? zero, theirs.get(d) ?? zero, known.copies.get(d) ?? zero];
			const fields = ["input", "output", "cacheRead", "cacheWrite"] as const;
			return fields.every((f) => o[f] === t[f] + c[f]) ? [] : [{ day: d, ours: o, ccusage: t, copies: c }];
		});
		expect(unexplained).toEqual([]);
		// Days enough to compare: the corpora's many, the repository's examples alone (no ../shared beside it) one.
		expect(theirs.size).toBeGreaterThan(SOURCES.length > 1 ? 3 : 0);
		const equal = days.filter((d) => JSON.stringify(ours.get(d) ?? zero) === JSON.stringify(theirs.get(d) ?? zero));
		const sum = (m: Map<string, DayTotals>) => [...m.values()].reduce((n, t) => n + t.input + t.output + t.cacheRead + t.cacheWrite, 0);
		// Printed for the README.
		process.stdout.write(`usage per day vs ccusage, over ${files} transcript files: ${equal.length} of ${days.length} days equal to the token (${sum(known.warmups)} tokens of warmups without a session counted in both); the rest (${days.filter((d) => !equal.includes(d)).join(", ") || "none"}) differ by exactly ${sum(known.copies)} tokens ccusage counts from a sub-agent's partial copy\n`);
	}, 120_000);
});

interface MessageTokens {
	day: string;
	tokens: DayTotals;
}

/** Each message's last usage in a file by id: the assistant's own lines, or (`copies`) the sub-agent messages of progress records. */
function messagesOf(file: string, copies: boolean): Map<string, MessageTokens> {
	const out = new Map<string, MessageTokens>();
	for (const line of readFileSync(file, "utf8").split("\n")) {
		let o: { type?: string; timestamp?: string; message?: Message; data?: { message?: { type?: string; timestamp?: string; message?: Message } } };
		try {
			o = JSON.parse(line) as typeof o;
		} catch {
			continue;
		}
		const copy = o.type === "progress" && o.data?.message?.type === "assistant" ? o.data.message : undefined;
		const message = copies ? copy?.message : o.type === "assistant" ? o.message : undefined;
		const at = copies ? (copy?.timestamp ?? o.timestamp) : o.timestamp;
		if (!message?.id || !message.usage || !at) continue;
		const u = message.usage;
		out.set(message.id, { day: at.slice(0, 10), tokens: { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0, cacheRead: u.cache_read_input_tokens ?? 0, cacheWrite: u.cache_creation_input_tokens ?? 0 } });
	}
	return out;
}

interface Message {
	id?: string;
	usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
}

function addTo(days: Map<string, DayTotals>, day: string, t: DayTotals, sign: number): void {
	const d = days.get(day) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	d.input += sign * t.input;
	d.output += sign * t.output;
	d.cacheRead += sign * t.cacheRead;
	d.cacheWrite += sign * t.cacheWrite;
	days.set(day, d);
}

/** Per day, the tokens of warmups without a session (counted by both), and ours minus the parent's copy for sub-agent messages whose copy is partial. */
function knownDifferences(projects: string): { warmups: Map<string, DayTotals>; copies: Map<string, DayTotals> } {
	const warmups = new Map<string, DayTotals>();
	const copies = new Map<string, DayTotals>();
	for (const folder of readdirSync(projects)) {
		const dir = join(projects, folder);
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (name.startsWith("agent-") && name.endsWith(".jsonl")) {
				const text = readFileSync(path, "utf8");
				const session = /"sessionId":"([^"]+)"/.exec(text)?.[1];
				const warmup = /"type":"user"[^\n]*"content":"Warmup"/.test(text);
				if (warmup && session && !existsSync(join(dir, `${session}.jsonl`))) for (const m of messagesOf(path, false).values()) addTo(warmups, m.day, m.tokens, 1);
				continue;
			}
			const agents = join(dir, name.replace(/\.jsonl$/, ""), "subagents");
			if (!name.endsWith(".jsonl") || !existsSync(agents)) continue;
			const copied = messagesOf(path, true);
			for (const agent of readdirSync(agents).filter((n) => n.endsWith(".jsonl"))) {
				for (const [id, own] of messagesOf(join(agents, agent), false)) {
					const copy = copied.get(id);
					if (!copy || JSON.stringify(copy.tokens) === JSON.stringify(own.tokens)) continue;
					addTo(copies, own.day, own.tokens, 1);
					addTo(copies, own.day, copy.tokens, -1);
				}
			}
		}
	}
	return { warmups, copies };
}
