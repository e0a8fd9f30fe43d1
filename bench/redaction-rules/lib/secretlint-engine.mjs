// (C) secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend, MIT), its
// rules run directly on a text with a minimal stand-in for secretlint's rule context (no
// @secretlint/core): each rule's `file(source)` handler reports ranges; those become markers.
// The source has no file name, so rules that only look at some file types (.npmrc, .json, .p12,
// .env) stay silent, as gitleaks' path rules do.
import { rules } from "@secretlint/secretlint-rule-preset-recommend";

const handlers = [];
const reported = [];
let currentRule = "";
for (const rule of rules) {
	const id = rule.meta.id.replace("@secretlint/secretlint-rule-", "");
	if (rule.meta.type === "preset") continue;
	const context = {
		createTranslator: () => (messageId) => messageId,
		report: ({ range, message }) => reported.push({ rule: currentRule, start: range[0], end: range[1], message }),
		ignore: () => {},
	};
	const h = rule.create(context, {});
	if (h && typeof h.file === "function") handlers.push([id, h.file]);
}
export const secretlintRuleIds = handlers.map(([id]) => id);

/** Findings [{rule, start, end}] (synchronous: the handlers that return a promise are awaited nowhere, so their reports come late; none does in 13.1.0 for plain text). */
export function secretlintDetect(text) {
	reported.length = 0;
	const source = { content: text, filePath: "", ext: "", contentType: "text" };
	for (const [id, file] of handlers) {
		currentRule = id;
		const r = file(source);
		if (r && typeof r.then === "function") r.catch(() => {});
	}
	return reported.splice(0).map((f) => ({ ...f, secret: text.slice(f.start, f.end) }));
}
