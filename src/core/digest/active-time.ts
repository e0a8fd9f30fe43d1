import type { SessionModel } from "../transcript/session-model";

/** A pause longer than this is the person away, not work: it does not count. */
const IDLE_GAP_MS = 15 * 60_000;

/** Whole minutes of activity: the time between consecutive events, without long idle gaps. */
export function activeMinutes(model: SessionModel): number | undefined {
	const times: number[] = [];
	for (const event of model.events) {
		const at = event.kind === "tool" ? event.call.timestamp : event.timestamp;
		const ms = at ? Date.parse(at) : Number.NaN;
		if (Number.isFinite(ms)) times.push(ms);
	}
	for (const at of [model.startedAt, model.endedAt]) {
		const ms = at ? Date.parse(at) : Number.NaN;
		if (Number.isFinite(ms)) times.push(ms);
	}
	if (times.length === 0) return undefined;
	times.sort((a, b) => a - b);
	let active = 0;
	for (let i = 1; i < times.length; i++) {
		const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
		if (gap <= IDLE_GAP_MS) active += gap;
	}
	return Math.round(active / 60_000);
}
