/**
 * A map by a key that comes from outside (a project's folder, a session id, a record's type), as an
 * object with no prototype: in a plain object `constructor`, `toString` or `__proto__` as a key
 * finds what `Object.prototype` has (a session whose folder was `constructor` stopped every sync,
 * for every agent). Holds `from`'s own entries.
 */
export function dict<T>(from?: Readonly<Record<string, T>> | Iterable<readonly [string, T]>): Record<string, T> {
	const out = Object.create(null) as Record<string, T>;
	if (from === undefined) return out;
	if (Symbol.iterator in from) {
		for (const [key, value] of from) out[key] = value;
		return out;
	}
	// By its keys: no pair made for each entry (a state's thousand sessions are copied twice a sync).
	const record = from;
	for (const key of Object.keys(record)) out[key] = record[key]!;
	return out;
}

/** A value from outside as text for a message: `String` throws on `{"toString": 1}`. */
export function shown(value: unknown): string {
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
	try {
		return JSON.stringify(value) ?? typeof value;
	} catch {
		return typeof value;
	}
}
