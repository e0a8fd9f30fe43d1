import type { StoredTranscript } from "../ports";

/**
 * A stored transcript with every string of its model passed through `redact`: the state folder
 * lives in the vault, and nothing unredacted is written there either. Keys and numbers stay.
 */
export function redactStored(entry: StoredTranscript, redact: (text: string) => string): StoredTranscript {
	return { ...entry, model: deepRedact(entry.model, redact) };
}

function deepRedact<T>(value: T, redact: (text: string) => string): T {
	if (typeof value === "string") return redact(value) as T;
	if (Array.isArray(value)) return value.map((item: unknown) => deepRedact(item, redact)) as T;
	if (typeof value === "object" && value !== null) {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) out[key] = deepRedact(item, redact);
		return out as T;
	}
	return value;
}
