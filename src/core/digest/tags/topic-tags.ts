/**
 * Deterministic topic tags for a session note: the project tag, then up to `max` topic tags, most
 * specific first: user rules, prompt keywords, frameworks/tools, languages, activities.
 * Pure: no I/O, no clock, no randomness; the same input gives the same tags.
 */
import { Tier, isKnownTopic, tierOf } from "./catalog";
import { commandSignals, fileSignals, toolSignals } from "./file-signals";
import { ruleHits, ruleText, type KeywordRule } from "./keyword-rules";
import { rankKeywords, termOccurrences, type KeywordStats, type TermOccurrence } from "./keywords";
import { projectSlug, toTag } from "./tag-name";

export interface TagInput {
	/** Project folder name, e.g. "shop-api". */
	project: string;
	/** Absolute or relative paths the session wrote, edited or read. */
	files: readonly string[];
	/** Tool names used, e.g. ["Read", "Edit", "Bash", "WebFetch", "mcp__github__create_pr"]. */
	tools: readonly string[];
	/** The user's typed prompts (any language), in order; the first one counts double. */
	prompts: readonly string[];
	/** Shell commands run, e.g. ["npm test", "docker compose up"]. */
	commands?: readonly string[];
	/** `termOccurrences(prompts)` when the caller has it already (segmenting is the costly part). */
	occurrences?: readonly TermOccurrence[];
	/** `topicSignals(input)` when the caller has it already. */
	signals?: readonly TopicSignal[];
}

/** A topic named by the files, commands and tools of a session, with how often. */
export type TopicSignal = readonly [name: string, weight: number];

/** Topics from files, commands and tools: the part of the tags that needs no corpus. */
export function topicSignals(input: Pick<TagInput, "project" | "files" | "tools" | "commands">): TopicSignal[] {
	const weights = new Map<string, number>();
	const bump = (name: string) => weights.set(name, (weights.get(name) ?? 0) + 1);
	for (const file of new Set(input.files)) for (const name of fileSignals(file, input.project)) bump(name);
	for (const command of input.commands ?? []) for (const name of commandSignals(command)) bump(name);
	for (const tool of input.tools) for (const name of toolSignals(tool)) bump(name);
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

export const DEFAULT_PREFIX = "ai/";
export const DEFAULT_MAX = 5;
export const DEFAULT_MAX_KEYWORDS = 3;
/** A file/command/tool topic is kept when it has at least this share of the strongest topic of its tier. */
export const MIN_SHARE_OF_TIER = 0.2;

interface Signal {
	weight: number;
	/** Named in the prompts too: kept even when weak next to its tier's leader. */
	mentioned: boolean;
}

/**
 * `[<prefix>project/<slug>, ...topics]`: the project tag always comes first and does not count
 * against `max`; the topics follow most specific first, ties broken alphabetically.
 */
export function topicTags(input: TagInput, stats: KeywordStats, options: TagOptions): string[] {
	const prefix = options.prefix;
	const max = limitOf(options.max, DEFAULT_MAX);
	const maxKeywords = limitOf(options.maxKeywords, DEFAULT_MAX_KEYWORDS);
	const slug = projectSlug(input.project);
	const projectTag = toTag(prefix, `project/${slug}`) ?? `project/${slug}`;

	const ordered: string[] = [...ruleTags(input.prompts, options.rules ?? [], prefix)];

	const signals = new Map<string, Signal>();
	const bump = (name: string, weight: number, mentioned = false) => {
		const signal = signals.get(name) ?? { weight: 0, mentioned: false };
		signal.weight += weight;
		signal.mentioned ||= mentioned;
		signals.set(name, signal);
	};
	const exclude = new Set([slug, ...slug.split(/[-_]/).filter((w) => w.length >= 3)]);
	let keywords = 0;
	for (const { term } of rankKeywords(input.occurrences ?? termOccurrences(input.prompts), stats, Number.POSITIVE_INFINITY, exclude)) {
		if (isKnownTopic(term)) bump(term, 1, true);
		else if (keywords < maxKeywords) {
			keywords++;
			ordered.push(...optional(toTag(prefix, term)));
		}
	}
	for (const [name, weight] of input.signals ?? topicSignals(input)) bump(name, weight);
	ordered.push(...rankSignals(signals).flatMap((name) => optional(toTag(prefix, name))));

	const topics = [...new Set(ordered)].filter((tag) => tag !== projectTag).slice(0, max);
	return [projectTag, ...topics];
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
	return [...hits].sort((a, b) => b[1] - a[1] || compare(a[0], b[0])).map(([tag]) => tag);
}

/** Topic names by tier, then weight, then name; weak ones next to their tier's leader are dropped. */
function rankSignals(signals: ReadonlyMap<string, Signal>): string[] {
	const leader = new Map<Tier, number>();
	for (const [name, { weight }] of signals) leader.set(tierOf(name), Math.max(leader.get(tierOf(name)) ?? 0, weight));
	return [...signals]
		.filter(([name, { weight, mentioned }]) => mentioned || weight >= MIN_SHARE_OF_TIER * (leader.get(tierOf(name)) ?? 0))
		.sort(([a, x], [b, y]) => tierOf(a) - tierOf(b) || y.weight - x.weight || compare(a, b))
		.map(([name]) => name);
}

function limitOf(value: number | undefined, fallback: number): number {
	return value === undefined || Number.isNaN(value) ? fallback : Math.max(0, Math.floor(value));
}

function optional<T>(value: T | undefined): T[] {
	return value === undefined ? [] : [value];
}

/** Code-unit order: the same everywhere, unlike localeCompare. */
function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
