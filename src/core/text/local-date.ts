import { format } from "date-fns";

/**
 * `format(date, "yyyy-MM-dd")` and `format(date, "yyyy-MM-dd'T'HH:mm")` (local time), made without
 * parsing a pattern for every call (measured: a twentieth of a session's digest, which dates every
 * message); a year outside 1000–9999 goes to date-fns, which writes those its own way.
 */
export function localDate(date: Date): string {
	const year = date.getFullYear();
	if (year < 1000 || year > 9999) return format(date, "yyyy-MM-dd");
	return `${year}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
}

export function localMinute(date: Date): string {
	const year = date.getFullYear();
	if (year < 1000 || year > 9999) return format(date, "yyyy-MM-dd'T'HH:mm");
	return `${localDate(date)}T${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/** `2026-11-29T14:05` in the machine's zone: a datetime property for Obsidian; undefined when there is none. */
export function localTime(iso?: string): string | undefined {
	if (!iso) return undefined;
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? undefined : localMinute(date);
}

/** The local day of an ISO time, `YYYY-MM-DD`; undefined when it is none. */
export function localDay(iso: string | undefined): string | undefined {
	if (!iso) return undefined;
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? undefined : localDate(date);
}

/**
 * The day a session is filed under, as a person there reads it: the local day of its start (a
 * note's `started` is a local time, and a session begun at 21:40 in New York was named after the
 * next day in UTC). A bare date is its own day; `undated` when there is none or it is no ISO time.
 */
export function sessionDay(startedAt: string | undefined): string {
	if (startedAt === undefined || !/^\d{4}-\d{2}-\d{2}(?:$|[T ])/.test(startedAt)) return "undated";
	if (startedAt.length === 10) return startedAt;
	// Only a time that starts as ISO's does: `Date` reads "2026/01/15" and "Jan 5" too, by guesses.
	const day = localDay(startedAt);
	return day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : "undated";
}

function pad2(n: number): string {
	return n < 10 ? `0${n}` : String(n);
}
