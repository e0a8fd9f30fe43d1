import type { SessionEvent, SessionModel } from "../transcript/session-model";

/** Redacts the whole model again (the redaction settings changed since it was stored). */
export function redactModelAgain(model: SessionModel, redact: (text: string) => string): void {
	model.index.redactedEvents = 0;
	for (const event of model.events) if (event.kind === "tool" && event.call.result) event.call.result.redacted = false;
	redactModelInPlace(model, redact);
}

/**
 * Redacts a session model in place, so neither its notes nor the stored state can hold a secret.
 * Only what is new since the last call is touched: events past `index.redactedEvents`, and tool
 * results not yet marked `redacted` (a result can arrive for an older call). Both marks are part
 * of the stored model, so a restored model is not redacted twice.
 */
export function redactModelInPlace(model: SessionModel, redact: (text: string) => string): void {
	const events = model.events;
	for (let i = model.index.redactedEvents; i < events.length; i++) redactEvent(events[i]!, redact);
	for (const event of events) {
		if (event.kind !== "tool" || !event.call.result || event.call.result.redacted) continue;
		event.call.result.text = redact(event.call.result.text);
		event.call.result.redacted = true;
	}
	model.index.redactedEvents = events.length;
	// A compaction's summary can come in a later read than its boundary (which was redacted then):
	// all of them, every time (few, short, and redaction leaves its own markers alone).
	for (const event of events) if (event.kind === "compaction" && event.summary) event.summary = redact(event.summary);
	for (const summary of model.summaries) summary.text = redact(summary.text);
	if (model.lastPrompt) model.lastPrompt = redact(model.lastPrompt);
	if (model.awaySummary) model.awaySummary = redact(model.awaySummary);
	if (model.customTitle) model.customTitle = redact(model.customTitle);
	if (model.aiTitle) model.aiTitle = redact(model.aiTitle);
}

function redactEvent(event: SessionEvent, redact: (text: string) => string): void {
	switch (event.kind) {
		case "prompt":
		case "text":
		case "thinking":
		case "error":
			event.text = redact(event.text);
			return;
		case "tool":
			event.call.input = redactValue(event.call.input, redact) as Record<string, unknown>;
			return;
		case "compaction":
			if (event.summary) event.summary = redact(event.summary);
			return;
	}
}

function redactValue(value: unknown, redact: (text: string) => string): unknown {
	if (typeof value === "string") return value.length < 8 ? value : redact(value);
	if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
	if (typeof value === "object" && value !== null) {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) out[key] = redactValue(item, redact);
		return out;
	}
	return value;
}
