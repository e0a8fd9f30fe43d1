import { dict } from "../dict";
import type { UsageDay } from "../digest/usage-days";

/** US dollars per million tokens. */
export interface ModelPrice {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/**
 * List prices per model, as their makers published them on the date below: the figures are an
 * estimate of what the same tokens cost through the API (a subscription bills otherwise), and every
 * place that shows them says so. Cache writes at the five-minute rate. The user's own table in the
 * settings (`prices`) wins over this one, model by model.
 */
export const PRICES_AS_OF = "2025-11-24";

export const BUNDLED_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze(dict({
	"claude-opus-4-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
	"claude-opus-4-1": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
	"claude-opus-4": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
	"claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	"claude-sonnet-4": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	"claude-3-7-sonnet": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	"claude-3-5-sonnet": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	"claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
	"claude-3-5-haiku": { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
	"gpt-5": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
	"gpt-5-codex": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
	"gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
	"gpt-5.1": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
	"gpt-5.1-codex": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
	"gemini-2.5-pro": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
	"gemini-2.5-flash": { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
}));

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * The price of a model: the user's entry, else the bundled one, by its exact name or its name
 * without the date suffix (`claude-sonnet-4-5-20250929`). No guess by family: an unknown model has
 * no price, and the view says which models went unpriced.
 */
export function priceOf(model: string, overrides: PriceTable = {}): ModelPrice | undefined {
	const bare = model.replace(/-\d{8}$/, "");
	// Own entries only: a model named `constructor` found the object's own function as its price.
	const own = (table: PriceTable, name: string) => (Object.hasOwn(table, name) ? table[name] : undefined);
	return own(overrides, model) ?? own(overrides, bare) ?? own(BUNDLED_PRICES, model) ?? own(BUNDLED_PRICES, bare);
}

/** The estimated cost of one day's tokens of one model, in dollars; undefined without a price. */
export function costOf(usage: Omit<UsageDay, "day">, overrides: PriceTable = {}): number | undefined {
	const p = priceOf(usage.model, overrides);
	if (!p) return undefined;
	return (usage.input * p.input + usage.output * p.output + usage.cacheRead * p.cacheRead + usage.cacheWrite * p.cacheWrite) / 1_000_000;
}

/** A user's price table from the settings: entries with four non-negative numbers, the rest dropped. */
export function readPriceTable(raw: unknown): Record<string, ModelPrice> {
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
	const out: Record<string, ModelPrice> = {};
	for (const [model, value] of Object.entries(raw as Record<string, unknown>)) {
		if (model.trim() === "" || typeof value !== "object" || value === null) continue;
		const v = value as Record<string, unknown>;
		const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : undefined);
		const input = n(v.input);
		const output = n(v.output);
		if (input === undefined || output === undefined) continue;
		out[model.trim()] = { input, output, cacheRead: n(v.cacheRead) ?? 0, cacheWrite: n(v.cacheWrite) ?? 0 };
	}
	return out;
}

/** The settings tab's form of a price table: `model: input output cache-read cache-write` a line, dollars per million tokens. */
export function formatPriceLines(table: PriceTable): string {
	return Object.entries(table)
		.map(([model, p]) => `${model}: ${p.input} ${p.output} ${p.cacheRead} ${p.cacheWrite}`)
		.join("\n");
}

/** Reads the settings tab's lines; a line that is not `model: n n [n [n]]` is an error by its number. */
export function parsePriceLines(source: string): { prices: Record<string, ModelPrice>; errors: string[] } {
	const prices: Record<string, ModelPrice> = {};
	const errors: string[] = [];
	source.split(/\r?\n/).forEach((line, i) => {
		if (line.trim() === "") return;
		const colon = line.lastIndexOf(":");
		const model = colon < 0 ? "" : line.slice(0, colon).trim();
		const numbers = colon < 0 ? [] : line.slice(colon + 1).trim().split(/\s+/).map(Number);
		if (model === "" || numbers.length < 2 || numbers.length > 4 || numbers.some((n) => !Number.isFinite(n) || n < 0)) {
			errors.push(`Line ${i + 1}: write it as "model: input output cache-read cache-write" (dollars per million tokens).`);
			return;
		}
		prices[model] = { input: numbers[0]!, output: numbers[1]!, cacheRead: numbers[2] ?? 0, cacheWrite: numbers[3] ?? 0 };
	});
	return { prices, errors };
}
