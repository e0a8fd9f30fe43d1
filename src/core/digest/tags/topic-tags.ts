/**
 * Deterministic topic tags for a session note: the project tag, then up to `max` topic tags, most
 * specific first: user rules, prompt keywords, frameworks/tools, languages, activities.
 * Pure: no I/O, no clock, no randomness; the same input gives the same tags.
 */
import { ACTIVITY_OF, Tier, isKnownTopic, tierOf } from "./catalog";
import { codeUnitOrder } from "../../text/code-unit-order";
import { commandSignals, fileSignals, gitRefs, toolSignals } from "./file-signals";
import { ruleHits, ruleText, type KeywordRule } from "./keyword-rules";
import { isTechnicalTerm, rankKeywords, termOccurrences, termOf, type KeywordStats, type TermOccurrence } from "./keywords";
import { projectSlug, projectTagSlug, toTag } from "./tag-name";

export interface TagInput {
	/** Project folder name, e.g. "shop-api". */
	project: string;
	/** Absolute or relative paths the session wrote, edited or read. */
	files: readonly string[];
	/** Of `files`, those the session only read, never wrote nor edited. */
	filesRead?: readonly string[];
	/** Tool names used, e.g. ["Read", "Edit", "Bash", "WebFetch", "mcp__github__create_pr"]. */
	tools: readonly string[];
	/** The user's typed prompts (any language), in order; the first one counts double. */
	prompts: readonly string[];
	/** Shell commands run, e.g. ["npm test", "docker compose up"]. */
	commands?: readonly string[];
	/** The project's folder; a linked worktree (`…/cli/.worktrees/2`) is then tagged with its repository. */
	projectPath?: string;
	/** The session's git branches (the transcript's `gitBranch`): never topics, nor a project name. */
	branches?: readonly string[];
	/** `termOccurrences(prompts)` when the caller has it already (segmenting is the costly part). */
	occurrences?: readonly TermOccurrence[];
	/** `topicSignals(input)` when the caller has it already. */
	signals?: readonly TopicSignal[];
}

/** A topic named by the files, commands and tools of a session, with how often. */
export type TopicSignal = readonly [name: string, weight: number];

/** Files only read that an activity (testing, docs) or a test runner needs when nothing else names it: one spec or README looked at is not the work. */
const MIN_FILES_READ_FOR_ACTIVITY = 2;

/** Topics from files, commands and tools: the part of the tags that needs no corpus. */
export function topicSignals(input: Pick<TagInput, "project" | "files" | "filesRead" | "tools" | "commands">): TopicSignal[] {
	const weights = new Map<string, number>();
	const bump = (name: string) => weights.set(name, (weights.get(name) ?? 0) + 1);
	const onlyRead = new Set(input.filesRead);
	const readActivities = new Map<string, number>();
	for (const file of new Set(input.files)) {
		for (const name of fileSignals(file, input.project)) {
			if (onlyRead.has(file) && tierOf(name) >= Tier.Activity) readActivities.set(name, (readActivities.get(name) ?? 0) + 1);
			else bump(name);
		}
	}
	for (const command of input.commands ?? []) for (const name of commandSignals(command)) bump(name);
	for (const tool of input.tools) for (const name of toolSignals(tool)) bump(name);
	for (const [name, count] of readActivities) if (weights.has(name) || count >= MIN_FILES_READ_FOR_ACTIVITY) weights.set(name, (weights.get(name) ?? 0) + count);
	return [...weights];
}

export interface TagOptions {
	/** Tag prefix, with or without its trailing slash; default "ai/". */
	prefix: string;
	rules?: readonly KeywordRule[];
	/** Topic tags besides the project tag; default 5. */
	max?: number;
	/** Prompt keywords among them (known topics like `docker` found in prompts do not count); default 3. */
	maxKeywords?: number;
}

export const DEFAULT_MAX = 5;
export const DEFAULT_MAX_KEYWORDS = 3;
/** A file/command/tool topic is kept when it has at least this share of the strongest topic of its tier. */
const MIN_SHARE_OF_TIER = 0.2;

interface Signal {
	weight: number;
	/** Named in the first prompt (the goal): kept even when weak next to its tier's leader. */
	mentioned: boolean;
}

/** What a session's tags take from the session and the options alone, not from the corpus: `tagBasis`. */
export interface TagBasis {
	projectTag: string | undefined;
	family: string;
	ruleTags: readonly string[];
	notTopics: ReadonlySet<string>;
	branchWords: ReadonlySet<string>;
	signals: readonly TopicSignal[];
}

/** The part of `topicTags` that needs no corpus: worked out as soon as a session is read, while others still are. */
export function tagBasis(input: TagInput, options: TagOptions): TagBasis {
	const prefix = options.prefix;
	const branches = [...(input.branches ?? []), ...(input.commands ?? []).flatMap(gitRefs)].filter((b) => b !== "");
	const slug = projectTagSlug(input.project, input.projectPath, branches);
	return {
		projectTag: slug === undefined ? undefined : (toTag(prefix, `project/${slug}`) ?? `project/${slug}`),
		family: toTag(prefix, "project") ?? "project",
		ruleTags: ruleTags(input.prompts, options.rules ?? [], prefix),
		notTopics: notTopics(input.project, slug, branches),
		branchWords: branchWords(branches),
		signals: input.signals ?? topicSignals(input),
	};
}

/**
 * `[<prefix>project/<slug>, ...topics]`: the project tag always comes first and does not count
 * against `max`; the topics follow most specific first, ties broken alphabetically.
 * @param basis `tagBasis(input, options)`, when it was worked out already.
 */
export function topicTags(input: TagInput, stats: KeywordStats, options: TagOptions, basis: TagBasis = tagBasis(input, options)): string[] {
	const prefix = options.prefix;
	const max = limitOf(options.max, DEFAULT_MAX);
	const maxKeywords = limitOf(options.maxKeywords, DEFAULT_MAX_KEYWORDS);
	const { projectTag, family } = basis;

	const ordered: string[] = [...basis.ruleTags];

	const signals = new Map<string, Signal>();
	const bump = (name: string, weight: number, mentioned = false) => {
		const signal = signals.get(name) ?? { weight: 0, mentioned: false };
		signal.weight += weight;
		signal.mentioned ||= mentioned;
		signals.set(name, signal);
	};
	let keywords = 0;
	// Technical terms past the keyword quota: they take the slots files, commands and tools leave free.
	const spare: string[] = [];
	// The project's name written apart (`Fund Wise` for FundWise) is still the project.
	const squashed = projectSlug(input.project).replace(/-/g, "");
	const ranked = rankKeywords(input.occurrences ?? termOccurrences(input.prompts), stats, Number.POSITIVE_INFINITY, basis.notTopics, basis.branchWords);
	for (const { term, goal } of ranked) {
		if (term.includes("-") && term.replace(/-/g, "") === squashed) continue;
		// A piece of an activity's work (`docstring`) names the activity as well, in its place among the activities.
		const activity = ACTIVITY_OF.get(term);
		if (activity !== undefined) bump(activity, 1, goal === true);
		// Named in the goal, a known topic is kept however weak; named later only, it must stand up to
		// its tier's leader like a file's topic (`I have both Node and Python` in a JavaScript session).
		if (isKnownTopic(term)) bump(term, 1, goal === true);
		else if (keywords < maxKeywords) {
			keywords++;
			ordered.push(...optional(toTag(prefix, term)));
		} else if (isTechnicalTerm(term)) spare.push(...optional(toTag(prefix, term)));
	}
	for (const [name, weight] of basis.signals) bump(name, weight);
	ordered.push(...rankSignals(signals).flatMap((name) => optional(toTag(prefix, name))));
	ordered.push(...spare);

	// A topic is never the project again, nor `project` (the parent of every project tag).
	const topics = [...new Set(ordered)].filter((tag) => tag !== projectTag && tag !== family && !tag.startsWith(`${family}/`)).slice(0, max);
	return projectTag === undefined ? topics : [projectTag, ...topics];
}

/** The words of the session's branch names (`soph/add-agent-to-logging` → agent, logging): a prompt word they name is a topic. */
function branchWords(branches: readonly string[]): Set<string> {
	const out = new Set<string>();
	for (const branch of branches) {
		for (const segment of branch.split("/")) {
			const words = segment.split(/[-_.]+/).map(termOf).filter((w): w is string => w !== undefined);
			for (const [i, word] of words.entries()) {
				out.add(word);
				const next = words[i + 1];
				if (next !== undefined) out.add(`${word}-${next}`);
			}
		}
	}
	return out;
}

/** The names of git's default branches: never topics. */
const DEFAULT_BRANCHES = ["master", "main", "trunk", "develop", "head", "gh-pages"];

/**
 * Prompt terms that are not topics of this session: the words of the project's name (and of the
 * repository it is tagged with), the word `project`, and branch names: git's default ones, the
 * session's, and those its git commands name (a one-word branch, the last part of a
 * `feat/gemini-cli-agent` branch, `entire/sessions` as the phrase entire-session; single words of
 * a longer name stay, `feat/logging` keeps `logging`).
 */
function notTopics(project: string, slug: string | undefined, branches: readonly string[]): Set<string> {
	const out = new Set<string>(["project", ...DEFAULT_BRANCHES]);
	for (const name of new Set([projectSlug(project), ...(slug === undefined ? [] : [slug])])) {
		out.add(name);
		for (const word of name.split(/[-_]/)) if (word.length >= 3) out.add(word);
	}
	for (const branch of branches) {
		const segments = branch.split("/").filter((s) => s !== "");
		const last = segments[segments.length - 1];
		if (last === undefined) continue;
		// `entire/sessions` written in a prompt reads as the phrase entire-session.
		for (const name of [segments.length > 1 && !/[-_]/.test(last) ? undefined : last, segments.length > 1 ? segments.join("-") : undefined]) {
			const term = name === undefined ? undefined : termOf(name);
			if (term !== undefined) out.add(term);
		}
	}
	return out;
}

/** Rule tags whose keyword occurs in the prompts, most hits first, then alphabetically. */
function ruleTags(prompts: readonly string[], rules: readonly KeywordRule[], prefix: string): string[] {
	if (rules.length === 0) return [];
	const text = ruleText(prompts);
	const hits = new Map<string, number>();
	for (const rule of rules) {
		const tag = toTag(prefix, rule.tag);
		const count = tag === undefined ? 0 : ruleHits(rule.keyword, text);
		if (tag !== undefined && count > 0) hits.set(tag, (hits.get(tag) ?? 0) + count);
	}
	return [...hits].sort((a, b) => b[1] - a[1] || codeUnitOrder(a[0], b[0])).map(([tag]) => tag);
}

/** Topic names by tier, then weight, then name; weak ones next to their tier's leader are dropped. */
function rankSignals(signals: ReadonlyMap<string, Signal>): string[] {
	const leader = new Map<Tier, number>();
	for (const [name, { weight }] of signals) leader.set(tierOf(name), Math.max(leader.get(tierOf(name)) ?? 0, weight));
	return [...signals]
		.filter(([name, { weight, mentioned }]) => mentioned || weight >= MIN_SHARE_OF_TIER * (leader.get(tierOf(name)) ?? 0))
		.sort(([a, x], [b, y]) => tierOf(a) - tierOf(b) || y.weight - x.weight || codeUnitOrder(a, b))
		.map(([name]) => name);
}

function limitOf(value: number | undefined, fallback: number): number {
	return value === undefined || Number.isNaN(value) ? fallback : Math.max(0, Math.floor(value));
}

function optional<T>(value: T | undefined): T[] {
	return value === undefined ? [] : [value];
}

