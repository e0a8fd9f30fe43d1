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

/** The local day of an ISO time, `YYYY-MM-DD`; undefined when it is none. */
export function localDay(iso: string | undefined): string | undefined {
	if (!iso) return undefined;
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? undefined : localDate(date);
}

function pad2(n: number): string {
	return n < 10 ? `0${n}` : String(n);
}
