/**
 * The digest evaluation: each real session of a corpus synced alone, as a project of its own with
 * default settings, through the real engine (`runSync`); its eager CLAUDE.md entry scored against
 * hand-made labels (what the session asked, did, left open and decided), and everything that
 * reaches the next session (eager block, lazy facade, context packet, recall hook output)
 * searched for narration. Run with `npm run eval:digest [-- corpus-folder labels.json …]`;
 * `--misses` prints each session that missed a labeled item with its entry and what it missed,
 * `--verbose` every entry and every miss; both also print what the entries tell as done, open or
 * decided that matches no labeled item.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { sessionFiles } from "./corpus-files";
import type { ProjectFiles } from "../src/core/ports";
import { MemoryNotes } from "../test/fakes/memory-notes";
import { recallOutput } from "../src/core/hooks/hook-output";
import { DEFAULT_PROJECT, DEFAULT_SETTINGS, type ContextMode, type Settings } from "../src/core/settings";
import { redactionSpec } from "../src/core/ingest/redaction-policy";
import { runSync } from "../src/core/sync/sync-engine";
import { emptySyncState } from "../src/core/sync/sync-state";
import type { HookContext } from "../src/core/plan/hook-context";
import { openTranscriptIndex } from "../src/node/transcript-index";

interface Item {
	what: string;
	keys: string[];
}
export interface Label {
	file: string;
	empty?: boolean;
	asked: Item[];
	done: Item[];
	open: Item[];
	decisions: Item[];
}
const KINDS = ["asked", "done", "open", "decisions"] as const;

/** The report goes to standard output, a line at a time. */
function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

class Projects implements ProjectFiles {
	readonly files = new Map<string, string>();
	async read(project: string, name: string) {
		return this.files.get(`${project}/${name}`) ?? null;
	}
	async write(project: string, name: string, text: string) {
		this.files.set(`${project}/${name}`, text);
		return true;
	}
}

/** What the next session would read about one session, in each mode. */
interface Delivered {
	entry: string;
	block: string;
	facade: string;
	packet: string;
	recall: string;
	notes: number;
}

const VAULT = "/home/user/vault";

/** Syncs one session (with its sub-agent files) alone, as the CLI would, in a scratch folder. */
async function deliver(corpus: string, file: string): Promise<Delivered | undefined> {
	const scratch = mkdtempSync(join(tmpdir(), "digest-eval-"));
	try {
		const source = join(corpus, file);
		const folder = join(scratch, "projects", basename(dirname(source)));
		// Stamps kept: a copy stamped now has not settled, and its last line, when no newline ends it (as Entire stores them), would be left unread.
		cpSync(source, join(folder, basename(source)), { recursive: true, preserveTimestamps: true });
		const id = basename(source, ".jsonl");
		if (existsSync(join(dirname(source), id))) cpSync(join(dirname(source), id), join(folder, id), { recursive: true, preserveTimestamps: true });
		for (const sibling of readdirSync(dirname(source))) if (sibling.startsWith("agent-")) cpSync(join(dirname(source), sibling), join(folder, sibling), { preserveTimestamps: true });
		const out: Partial<Record<ContextMode, { block: string; hook?: HookContext; notes: number }>> = {};
		for (const mode of ["eager", "lazy"] as const) {
			const notes = new MemoryNotes();
			const projects = new Projects();
			const state = emptySyncState();
			let settings: Settings = { ...DEFAULT_SETTINGS, projects: [] };
			const index = openTranscriptIndex(join(scratch, "projects"), undefined, () => redactionSpec(settings));
			let hook: HookContext | undefined;
			// First pass finds the session's cwd; the second enables it as a project and writes its context.
			await runSync({ index, settings, state, notes, projects, vaultPath: VAULT });
			const cwd = Object.values(state.sessions)[0]?.digest.projectPath;
			if (!cwd) return undefined;
			settings = { ...settings, projects: [{ ...DEFAULT_PROJECT, path: cwd, enabled: true, mode, memorySharing: false }] };
			await runSync({ index, settings, state, notes, projects, vaultPath: VAULT, hookContext: async (_p, c) => void (hook = c ?? undefined) });
			const claude = projects.files.get(`${cwd}/CLAUDE.md`) ?? "";
			const begin = claude.indexOf("<!-- AUTO-CONTEXT:BEGIN -->");
			const end = claude.indexOf("<!-- AUTO-CONTEXT:END -->");
			out[mode] = { block: begin < 0 || end < 0 ? "" : claude.slice(begin + 27, end).trim(), hook, notes: Object.keys(state.sessions).length };
		}
		const eager = out.eager;
		const lazy = out.lazy;
		if (!eager || !lazy) return undefined;
		const at = eager.block.indexOf("\n### ");
		const entry = at < 0 ? "" : eager.block.slice(at + 1).trim();
		const packet = lazy.hook?.packet ?? "";
		return { entry, block: eager.block, facade: lazy.block, packet, recall: recallOutput(packet, lazy.hook?.packetPath ?? "", []), notes: eager.notes };
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

function covered(item: Item, text: string): boolean {
	const hay = text.toLowerCase();
	return item.keys.every((group) => group.split("|").some((alt) => alt.trim() !== "" && hay.includes(alt.trim().toLowerCase())));
}

/** The kinds an entry tells as items of a line of their own, and that line's label. */
const TOLD = { done: "Done", open: "Open", decisions: "Decided" } as const;
type Told = keyof typeof TOLD;

/** The items of an entry's line for a kind ("- Decided: a; b (+1 more)" gives a and b). */
export function itemsTold(entry: string, kind: Told): string[] {
	const line = new RegExp(`^- ${TOLD[kind]}: (.*)$`, "m").exec(entry)?.[1];
	return line === undefined ? [] : line.replace(/\s*\(\+\d+ more\)$/, "").split("; ").filter((d) => d.trim() !== "");
}

/**
 * Narration, told apart independently of the digest's own filter: a line (or an item of a
 * `Label: a; b` line) that announces a next step, opens with an interjection, or ends with ":".
 */
const NARRATION = [
	/^(?:let me|let's|i'll|i will|i'm going to|i am going to|now i\b|now let|now,|first,|next,|then i\b|i need to|i can see|looking at)/i,
	/^(?:perfect|great|excellent|awesome|good|sure|okay|alright)[!,.]/i,
	/(?:겠습니다|볼게요|할게요)[.!]?$/,
	/^(?:먼저|이제)\s/,
	/(?:しましょう|してみます|していきます)[。]?$/,
	/^(?:まず|次に)[、]/,
	/^(?:让我|我来|我将|首先|接下来)/,
	/[:：]$/,
];

export function narrationLines(text: string): string[] {
	const found: string[] = [];
	for (const line of text.split("\n")) {
		const body = line.replace(/^\s*(?:[-*]\s+)?(?:\*\*)?(?:[A-Z][a-z]+(?: [a-z]+)?:(?:\*\*)?\s+)?/, "").trim();
		if (body === "" || /^#/.test(line.trim()) || /^_.*_$/.test(body)) continue;
		for (const item of body.split("; ")) {
			const s = item.replace(/\s*\(\+\d+ more\)$/, "").replace(/^(?:asked|unfinished|unanswered):\s*/, "").trim();
			if (NARRATION.some((re) => re.test(s))) {
				found.push(s);
				break;
			}
		}
	}
	return found;
}

export interface Figures {
	sessions: number;
	entries: number;
	meanEntryChars: number;
	narration: string[];
	emptyWithEntry: number;
	/** Covered and labeled items per kind (labeled sessions only). */
	coverage: Record<(typeof KINDS)[number], [covered: number, labeled: number]>;
	/** Per kind, the items the entries tell (labeled sessions only), and how many of them match a labeled item of that kind: coverage counts what is found, not what is told wrongly. */
	told: Record<Told, [matching: number, told: number]>;
	/** The items told that match no labeled one, for reading. */
	unmatched: Record<Told, string[]>;
	missed: string[];
	/** Per session: its entry, for reading. */
	entries_: { file: string; entry: string }[];
}

/** Scores one corpus: every session synced alone, its entry checked against its label. */
export async function scoreCorpus(corpus: string, labels: readonly Label[] | undefined): Promise<Figures> {
	const byFile = new Map((labels ?? []).map((l) => [l.file, l]));
	const coverage: Figures["coverage"] = { asked: [0, 0], done: [0, 0], open: [0, 0], decisions: [0, 0] };
	const figures: Figures = { sessions: 0, entries: 0, meanEntryChars: 0, narration: [], emptyWithEntry: 0, coverage, told: { done: [0, 0], open: [0, 0], decisions: [0, 0] }, unmatched: { done: [], open: [], decisions: [] }, missed: [], entries_: [] };
	let chars = 0;
	for (const file of sessionFiles(corpus)) {
		figures.sessions++;
		const got = await deliver(corpus, file);
		const label = byFile.get(file);
		const entry = got?.entry ?? "";
		figures.entries_.push({ file, entry });
		if (entry !== "") {
			figures.entries++;
			chars += entry.length;
		}
		if (label?.empty && entry !== "") figures.emptyWithEntry++;
		if (got) for (const line of [got.block, got.facade, got.packet, got.recall].flatMap(narrationLines)) figures.narration.push(`${file}: ${line}`);
		if (!label || label.empty) continue;
		for (const kind of Object.keys(TOLD) as Told[]) {
			for (const told of itemsTold(entry, kind)) {
				const matches = label[kind].some((item) => covered(item, told));
				figures.told[kind][0] += matches ? 1 : 0;
				figures.told[kind][1]++;
				if (!matches) figures.unmatched[kind].push(`${told} — ${file}`);
			}
		}
		for (const kind of KINDS) {
			for (const item of label[kind]) {
				const ok = covered(item, entry);
				coverage[kind][0] += ok ? 1 : 0;
				coverage[kind][1]++;
				if (!ok) figures.missed.push(`${kind}: ${item.what} [${item.keys.join(" + ")}] — ${file}`);
			}
		}
	}
	figures.meanEntryChars = figures.entries === 0 ? 0 : Math.round(chars / figures.entries);
	return figures;
}

async function evaluate(corpus: string, labels: Label[] | undefined, verbose: boolean, misses: boolean): Promise<void> {
	const f = await scoreCorpus(corpus, labels);
	if (verbose) for (const { file, entry } of f.entries_) say(`\n=== ${file}\n${entry || "(no entry)"}`);
	// Each session that missed an item: its entry, then what it missed (to group the misses by what would catch them).
	if (misses && !verbose) {
		for (const { file, entry } of f.entries_) {
			const missed = f.missed.filter((m) => m.endsWith(` — ${file}`));
			if (missed.length > 0) say(`\n=== ${file}\n${entry || "(no entry)"}\n  missed:\n    ${missed.map((m) => m.slice(0, -(file.length + 3))).join("\n    ")}`);
		}
	}
	const pct = (k: (typeof KINDS)[number]) => (f.coverage[k][1] === 0 ? "n/a" : `${Math.round((100 * f.coverage[k][0]) / f.coverage[k][1])}% (${f.coverage[k][0]}/${f.coverage[k][1]})`);
	say(`\n## ${relative(process.cwd(), corpus) || corpus}`);
	if (labels) say(`asked ${pct("asked")} · done ${pct("done")} · open ${pct("open")} · decisions ${pct("decisions")}`);
	if (labels) say(`told, matching a labeled item: ${(Object.keys(TOLD) as Told[]).map((k) => `${k} ${f.told[k][0]}/${f.told[k][1]}`).join(" · ")}`);
	say(`sessions ${f.sessions} · entries ${f.entries} · mean entry ${f.meanEntryChars} chars · narration lines ${f.narration.length}${labels ? ` · empty sessions with an entry ${f.emptyWithEntry}` : ""}`);
	if (verbose && f.narration.length > 0) say(`narration:\n  ${f.narration.join("\n  ")}`);
	if (verbose && f.missed.length > 0) say(`missed:\n  ${f.missed.join("\n  ")}`);
	for (const kind of Object.keys(TOLD) as Told[]) if ((verbose || misses) && f.unmatched[kind].length > 0) say(`${kind} told that match no labeled one:\n  ${f.unmatched[kind].join("\n  ")}`);
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const verbose = args.includes("--verbose");
	const misses = args.includes("--misses");
	const rest = args.filter((a) => a !== "--verbose" && a !== "--misses");
	// The bundle runs from eval/out/.
	const repo = join(__dirname, "..", "..");
	const shared = join(repo, "..", "shared", "corpus");
	const runs: [string, string | undefined][] =
		rest.length > 0
			? [[rest[0] ?? "", rest[1]]]
			: [
					[join(shared, "claude-transcripts"), join(repo, "eval/labels/claude-transcripts-[a-z].json")],
					[join(repo, "examples", "claude-projects"), join(repo, "eval/labels/examples.json")],
					[join(shared, "claude-transcripts-2"), join(repo, "eval/labels/claude-transcripts-2.json")],
				];
	for (const [corpus, pattern] of runs) {
		if (!existsSync(corpus)) {
			say(`\n## ${corpus}: not here, skipped`);
			continue;
		}
		await evaluate(corpus, pattern ? loadLabels(pattern) : undefined, verbose, misses);
	}
}

/** Labels from one file, or from every file a `*` (or `[a-z]`) pattern in the last part names. */
export function loadLabels(pattern: string): Label[] {
	const dir = dirname(pattern);
	const name = basename(pattern);
	const re = new RegExp(`^${name.replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
	const files = existsSync(dir) ? readdirSync(dir).filter((f) => re.test(f)) : [];
	return files.flatMap((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Label[]);
}

// Run as a script (the bundle), not when a test imports the module.
if (require.main === module) void main();
