// A re-implementation of gitleaks' per-fragment detection (detect/detect.go: DetectContext and
// detectRule) on re2js, for text without a file path or commit:
//   - keyword prefilter on the lower-cased text (rules without keywords always run);
//   - every match of the rule's regex (FindAllStringIndex), trimmed of "\n";
//   - the secret: group `secretGroup` if set, else the first non-empty capture group, else the match;
//   - optional (mode "full"): entropy <= rule.entropy drops the finding, then the global
//     allowlist, then the rule's allowlists (regexes against secret|match|line, stopwords against
//     the secret; condition OR, or AND over the checks the allowlist has).
// Not implemented: gitleaks' decoding passes (base64/hex/percent, --max-decode-depth), the
// `gitleaks:allow` line comment, requiredRules (none in the default config), commit lists.
// Rules with `path` never fire on text without a path (gitleaks returns early), so they are
// skipped; an AND allowlist with `paths` can never be satisfied without a path, as in gitleaks.
import { RE2JS } from "re2js";
import { parse as parseToml } from "smol-toml";
import { readFileSync } from "node:fs";

function compile(source) {
	return RE2JS.compile(source);
}

/** Shannon entropy over the UTF-8 bytes' count, as gitleaks computes it (runes counted, divided by byte length). */
export function shannonEntropy(s) {
	if (s === "") return 0;
	const counts = new Map();
	for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
	const len = Buffer.byteLength(s, "utf8");
	let e = 0;
	for (const c of counts.values()) {
		const f = c / len;
		e -= f * Math.log2(f);
	}
	return e;
}

function compileAllowlist(a, failures, where) {
	const regexes = [];
	for (const r of a.regexes ?? []) {
		try {
			regexes.push(compile(r));
		} catch (e) {
			failures.push({ where, regex: r, error: String(e.message ?? e) });
		}
	}
	return {
		target: a.regexTarget ?? "secret",
		and: String(a.condition ?? "OR").toUpperCase() === "AND",
		regexes,
		stopwords: (a.stopwords ?? []).map((w) => w.toLowerCase()),
		hasPaths: (a.paths ?? []).length > 0,
		hasCommits: (a.commits ?? []).length > 0,
	};
}

function allowed(lists, secret, match, line) {
	for (const a of lists) {
		const target = a.target === "match" ? match : a.target === "line" ? line : secret;
		const regexOk = target !== "" && a.regexes.some((re) => re.matcher(target).find());
		const lower = secret.toLowerCase();
		const stopOk = secret !== "" && a.stopwords.some((w) => lower.includes(w));
		let ok;
		if (a.and) {
			const checks = [];
			if (a.hasCommits) checks.push(false); // no commit
			if (a.hasPaths) checks.push(false); // no path
			if (a.regexes.length > 0) checks.push(regexOk);
			if (a.stopwords.length > 0) checks.push(stopOk);
			ok = checks.every(Boolean); // allTrue([]) is true in gitleaks too
		} else ok = regexOk || stopOk;
		if (ok) return true;
	}
	return false;
}

/** Aho-Corasick over ASCII lower-case keywords: which occur in a text, in one pass. */
function keywordFinder(words) {
	const next = [new Int32Array(128)];
	const ends = [[]];
	for (const w of words) {
		let s = 0;
		for (let i = 0; i < w.length; i++) {
			const c = w.charCodeAt(i);
			if (c >= 128) throw new Error(`non-ASCII keyword ${w}`);
			if (next[s][c] === 0) {
				next[s][c] = next.length;
				next.push(new Int32Array(128));
				ends.push([]);
			}
			s = next[s][c];
		}
		ends[s].push(w);
	}
	const step = new Int32Array(next.length * 128);
	const fail = new Int32Array(next.length);
	const queue = [0];
	for (let q = 0; q < queue.length; q++) {
		const s = queue[q];
		for (let c = 0; c < 128; c++) {
			const child = next[s][c];
			const onFail = s === 0 ? 0 : step[fail[s] * 128 + c];
			if (child === 0) step[s * 128 + c] = onFail;
			else {
				step[s * 128 + c] = child;
				fail[child] = onFail;
				ends[child].push(...ends[onFail]);
				queue.push(child);
			}
		}
	}
	const endIds = ends.map((e) => e.map((w) => words.indexOf(w)));
	return (text, seen) => {
		let s = 0;
		let any = false;
		for (let i = 0; i < text.length; i++) {
			const c = text.charCodeAt(i);
			s = c < 128 ? step[s * 128 + c] : 0;
			const e = endIds[s];
			if (e.length > 0) {
				any = true;
				for (const id of e) seen[id] = 1;
			}
		}
		return any;
	};
}

export function loadGitleaks(tomlPath) {
	const cfg = parseToml(readFileSync(tomlPath, "utf8"));
	const failures = [];
	const skipped = [];
	const rules = [];
	for (const r of cfg.rules ?? []) {
		if (r.regex === undefined) {
			skipped.push({ id: r.id, why: "no regex (path-only rule)" });
			continue;
		}
		if (r.path !== undefined) {
			skipped.push({ id: r.id, why: `path ${r.path} (never matches text without a path)` });
			continue;
		}
		let re;
		try {
			re = compile(r.regex);
		} catch (e) {
			failures.push({ where: r.id, regex: r.regex, error: String(e.message ?? e) });
			continue;
		}
		rules.push({
			id: r.id,
			re,
			secretGroup: r.secretGroup ?? 0,
			entropy: r.entropy ?? 0,
			keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
			allowlists: (r.allowlists ?? []).map((a, i) => compileAllowlist(a, failures, `${r.id}.allowlists[${i}]`)),
		});
	}
	const global = [];
	for (const a of [cfg.allowlist, ...(cfg.allowlists ?? [])].filter(Boolean)) global.push(compileAllowlist(a, failures, "global allowlist"));
	const words = [...new Set(rules.flatMap((r) => r.keywords))];
	const wordIndex = new Map(words.map((w, i) => [w, i]));
	for (const r of rules) r.keywordIds = r.keywords.map((k) => wordIndex.get(k));
	const find = keywordFinder(words);
	const alwaysRules = rules.filter((r) => r.keywords.length === 0);
	const totalRules = (cfg.rules ?? []).length;
	return { rules, global, failures, skipped, totalRules, words, findKeywords: find, alwaysRules, config: cfg };
}

function lineAround(text, start, end) {
	const a = text.lastIndexOf("\n", start - 1) + 1;
	let b = text.indexOf("\n", end);
	if (b === -1) b = text.length;
	return text.slice(a, b);
}

/**
 * Findings in `text`: [{rule, start, end, secret, match}] with [start, end) the secret's span.
 * opts.full: apply entropy and allowlists. opts.gate (default true): a rule's regex runs its
 * capturing matcher (re2js' NFA, slow) only after a boolean `test()` (its lazy DFA) found a
 * match somewhere in the text; same findings, less time. opts.exclude: a Set of rule ids to skip.
 */
export function detect(gl, text, opts = { full: true }) {
	const gate = opts.gate !== false;
	const exclude = opts.exclude;
	const profile = opts.profile; // Map rule id -> ms, when given
	const out = [];
	const seen = new Uint8Array(gl.words.length);
	const lower = text.toLowerCase();
	// toLowerCase can change length for a few non-ASCII characters; keywords are ASCII, so the
	// keyword test on `lower` stays right even then.
	const anyKeyword = gl.findKeywords(lower, seen);
	const candidates = anyKeyword ? gl.rules.filter((r) => r.keywords.length === 0 || r.keywordIds.some((id) => seen[id] === 1)) : gl.alwaysRules;
	for (const r of candidates) {
		if (exclude !== undefined && exclude.has(r.id)) continue;
		const t0 = profile ? performance.now() : 0;
		if (gate && !r.re.test(text)) {
			if (profile) profile.set(r.id, (profile.get(r.id) ?? 0) + performance.now() - t0);
			continue;
		}
		const m = r.re.matcher(text);
		while (m.find()) {
			let s = m.start();
			let e = m.end();
			if (e === s) continue;
			// strings.Trim(match, "\n")
			while (s < e && text.charCodeAt(s) === 10) s++;
			while (e > s && text.charCodeAt(e - 1) === 10) e--;
			const match = text.slice(s, e);
			let secret = match;
			let ss = s;
			let se = e;
			const gc = m.groupCount();
			if (gc >= 1) {
				// gitleaks re-runs the regex on the match; the groups of this match are the same in practice.
				const pick = (g) => {
					const gs = m.start(g);
					if (gs < 0) return false;
					ss = gs;
					se = m.end(g);
					secret = text.slice(ss, se);
					return true;
				};
				if (r.secretGroup > 0) {
					if (gc < r.secretGroup) continue;
					pick(r.secretGroup);
				} else {
					for (let g = 1; g <= gc; g++) {
						const gs = m.start(g);
						if (gs >= 0 && m.end(g) > gs) {
							pick(g);
							break;
						}
					}
				}
			}
			if (opts.full) {
				const st = opts.stats;
				if (r.entropy !== 0 && shannonEntropy(secret) <= r.entropy) {
					if (st) st.entropy = (st.entropy ?? 0) + 1;
					continue;
				}
				const line = gl.global.some((a) => a.target === "line") || r.allowlists.some((a) => a.target === "line") ? lineAround(text, s, e) : "";
				if (allowed(gl.global, secret, match, line)) {
					if (st) st.globalAllowlist = (st.globalAllowlist ?? 0) + 1;
					continue;
				}
				if (allowed(r.allowlists, secret, match, line)) {
					if (st) st.ruleAllowlist = (st.ruleAllowlist ?? 0) + 1;
					continue;
				}
			}
			out.push({ rule: r.id, start: ss, end: se, secret, match, matchStart: s });
		}
		if (profile) profile.set(r.id, (profile.get(r.id) ?? 0) + performance.now() - t0);
	}
	const kept = dropGenericDuplicates(text, out);
	if (opts.stats && kept.length < out.length) opts.stats.genericDuplicate = (opts.stats.genericDuplicate ?? 0) + out.length - kept.length;
	return kept;
}

/**
 * gitleaks' filter(): a finding of a rule whose id contains "generic" is dropped when a
 * non-generic rule found, on the same line, a secret containing its secret.
 */
function dropGenericDuplicates(text, findings) {
	if (findings.length < 2 || !findings.some((f) => f.rule.includes("generic"))) return findings;
	const lineOf = (f) => text.lastIndexOf("\n", f.matchStart - 1);
	return findings.filter(
		(f) => !f.rule.includes("generic") || !findings.some((g) => g !== f && !g.rule.includes("generic") && g.rule !== f.rule && lineOf(g) === lineOf(f) && g.secret.includes(f.secret)),
	);
}

/** The text with each finding's secret span replaced by `[redacted:<rule>]` (overlaps merged, first rule's id kept). */
export function redactFindings(text, findings) {
	if (findings.length === 0) return text;
	const spans = findings.filter((f) => f.end > f.start).sort((a, b) => a.start - b.start || b.end - a.end);
	const parts = [];
	let last = 0;
	let cur = null;
	for (const f of spans) {
		if (cur && f.start < cur.end) {
			if (f.end > cur.end) cur.end = f.end;
			continue;
		}
		if (cur) {
			parts.push(text.slice(last, cur.start), `[redacted:${cur.rule}]`);
			last = cur.end;
		}
		cur = { start: f.start, end: f.end, rule: f.rule };
	}
	if (cur) {
		parts.push(text.slice(last, cur.start), `[redacted:${cur.rule}]`);
		last = cur.end;
	}
	parts.push(text.slice(last));
	return parts.join("");
}
