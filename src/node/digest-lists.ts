import { storedDigest, type SessionDigest, type StoredDigest } from "../core/digest/session-digest";

/**
 * A stored digest in two parts: its scalars (session id, version, title, dates…) in the session
 * file, its lists (tasks, done, asked, files, usage…) in a file of their own beside it. A sync reads
 * every project's records but, of most, only their scalars: the lists were three quarters of the
 * bytes it parsed and most of the objects its garbage collector copied (one appended turn: 449 ms
 * with them, 398 ms without, on the bench tree). So a sync reads them when first asked for.
 */

/** The fields kept apart: every one that is not a scalar. A field not named here stays in the record. */
const LIST_FIELDS = ["tasks", "asked", "done", "open", "decisions", "models", "filesTouched", "tools", "subagents", "tokens", "usage"] as const satisfies readonly (keyof StoredDigest)[];

export type DigestLists = Pick<StoredDigest, (typeof LIST_FIELDS)[number]>;

const isListField = (key: string): boolean => (LIST_FIELDS as readonly string[]).includes(key);

/** A digest whose lists are not read yet: how to read them, then what they are. */
const pending = new WeakMap<object, { read: () => DigestLists; lists?: DigestLists }>();

const descriptors: PropertyDescriptorMap = Object.fromEntries(
	LIST_FIELDS.map((field) => [
		field,
		{
			enumerable: true,
			get(this: object): unknown {
				const held = pending.get(this)!;
				held.lists ??= held.read();
				return held.lists[field];
			},
		},
	]),
);

/** A digest's stored form (`storedDigest`) in its two parts. */
export function splitDigest(digest: StoredDigest | SessionDigest): { head: Record<string, unknown>; lists: DigestLists } {
	const head: Record<string, unknown> = {};
	const lists: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(storedDigest(digest))) (isListField(key) ? lists : head)[key] = value;
	return { head, lists: lists as DigestLists };
}

/** Whether a stored digest holds its lists itself (a record written before they were kept apart). */
export function holdsLists(digest: unknown): boolean {
	return typeof digest === "object" && digest !== null && Array.isArray((digest as Partial<StoredDigest>).tasks);
}

/**
 * A digest from its stored head (taken, not copied), its lists read by `read` when first asked for
 * (`read` throws when they cannot be).
 */
export function digestReadingLists(head: Record<string, unknown>, read: () => DigestLists): StoredDigest {
	Object.defineProperties(head, descriptors);
	pending.set(head, { read });
	return head as unknown as StoredDigest;
}

/** A digest from its stored head (taken, not copied) and its lists. */
export function wholeDigest(head: Record<string, unknown>, lists: DigestLists): StoredDigest {
	for (const field of LIST_FIELDS) head[field] = lists[field];
	return head as unknown as StoredDigest;
}
