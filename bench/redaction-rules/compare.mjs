#!/usr/bin/env node
// Compares (A) the project's hand-written redactor (src/core/digest/redact.ts, bundled with
// esbuild from the project's sources at each run) with (B) gitleaks' default rule set
// (config/gitleaks.toml, vendored beside this script) run on re2js, two ways:
//   corpus 1: the project's labelled table (SECRETS, LOOK_ALIKES in test/core/digest/redact.test.ts);
//   corpus 2: every string value (length >= 8) of every JSONL line of a transcript tree, timed.
// Usage: node compare.mjs [--main DIR] [--corpus DIR] [--toml FILE] [--rounds N] [--mib N]
//                         [--chunk-mib N] [--samples N] [--no-corpus2] [--json FILE]
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildProject } from "./lib/build.mjs";
import { loadGitleaks, detect, redactFindings } from "./lib/gitleaks-engine.mjs";
import { secretlintDetect, secretlintRuleIds } from "./lib/secretlint-engine.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SL_VERSION = JSON.parse(readFileSync(path.join(HERE, "node_modules/@secretlint/secretlint-rule-preset-recommend/package.json"), "utf8")).version;
const args = process.argv.slice(2);
const opt = (name, dflt) => {
	const i = args.indexOf(`--${name}`);
	return i === -1 ? dflt : args[i + 1];
};
const MAIN = opt("main", path.join(HERE, "..", ".."));
const CORPUS = opt("corpus", "/tmp/ai-memory-bench/projects");
const TOML = opt("toml", path.join(HERE, "gitleaks.toml"));
const ROUNDS = Number(opt("rounds", "3"));
const MIB = Number(opt("mib", "0")); // 0: the whole tree
const CHUNK_MIB = Number(opt("chunk-mib", "24"));
const SAMPLES = Number(opt("samples", "20"));
const JSON_OUT = opt("json", "");
const NO_CORPUS2 = args.includes("--no-corpus2");

const report = {};
let badLines = 0;
const log = (...a) => process.stdout.write(`${a.join(" ")}\n`);

// ---------------------------------------------------------------------------------------------
// Engines

const { redact, SECRETS, LOOK_ALIKES, t: T } = await buildProject(MAIN, path.join(HERE, "build"));
const redactorA = redact.createRedactor();
const gl = loadGitleaks(TOML);

const engineA = (s) => redactorA.redactWithReport(s);
const engineBfull = (s) => {
	const f = detect(gl, s, { full: true });
	return { text: redactFindings(s, f), findings: f };
};
const NO_GENERIC = new Set(["generic-api-key"]);
const engineBsub = (s) => {
	const f = detect(gl, s, { full: true, exclude: NO_GENERIC });
	return { text: redactFindings(s, f), findings: f };
};
const engineBungated = (s) => {
	const f = detect(gl, s, { full: true, gate: false });
	return { text: redactFindings(s, f), findings: f };
};
const engineC = (s) => {
	const f = secretlintDetect(s);
	return { text: redactFindings(s, f), findings: f };
};
const engineBraw = (s) => {
	const f = detect(gl, s, { full: false });
	return { text: redactFindings(s, f), findings: f };
};

/**
 * The parts of `input` that `output` replaced with markers: [{kind, secret, start}]. Every
 * engine here only replaces spans with `[redacted:kind]` and keeps the rest verbatim.
 */
function replacedParts(input, output) {
	const pieces = output.split(/\[redacted:([a-z0-9-]+)\]/);
	const parts = [];
	if (!input.startsWith(pieces[0])) return [{ kind: "?", secret: input, start: 0 }];
	let pos = pieces[0].length;
	for (let i = 1; i < pieces.length; i += 2) {
		const kind = pieces[i];
		const after = pieces[i + 1];
		let end;
		if (i + 2 >= pieces.length) end = input.length - after.length;
		else if (after === "") end = pos + 1; // two markers in a row: ambiguous split
		else end = input.indexOf(after, pos + 1);
		if (end < pos) end = input.length;
		parts.push({ kind, secret: input.slice(pos, end), start: pos });
		pos = end + after.length;
	}
	return parts;
}

// ---------------------------------------------------------------------------------------------
// Corpus 1: the labelled table

log(`gitleaks rules: ${gl.totalRules} in ${path.relative(HERE, TOML)}; compiled with re2js ${JSON.parse(readFileSync(path.join(HERE, "node_modules/re2js/package.json"))).version}: ${gl.rules.length}; failed to compile: ${gl.failures.length}; skipped: ${gl.skipped.length}`);
for (const f of gl.failures) log(`  compile failure ${f.where}: ${f.error}  /${f.regex.slice(0, 80)}/`);
for (const s of gl.skipped) log(`  skipped ${s.id}: ${s.why}`);
report.rules = { total: gl.totalRules, compiled: gl.rules.length, failures: gl.failures, skipped: gl.skipped };

const ENGINES1 = [
	["A hand-written", engineA],
	["B gitleaks raw (regex+keywords+secretGroup)", engineBraw],
	["B gitleaks full (+entropy+allowlists)", engineBfull],
	["B' gitleaks full without generic-api-key", engineBsub],
	[`C secretlint preset-recommend ${SL_VERSION} (${secretlintRuleIds.length} rules, JS RegExp)`, engineC],
];
{
	const st = {};
	for (const text of [...SECRETS.map((r) => r[1]), ...LOOK_ALIKES]) detect(gl, text, { full: true, stats: st });
	const raw = [...SECRETS.map((r) => r[1]), ...LOOK_ALIKES].reduce((a, text) => a + detect(gl, text, { full: false }).length, 0);
	report.corpus1Drops = { raw, ...st };
	var corpus1Drops = `raw findings ${raw}; dropped by ${Object.entries(st).map(([k, v]) => `${k} ${v}`).join(", ") || "nothing"}`;
}
log(`\n== Corpus 1: ${SECRETS.length} SECRETS rows, ${LOOK_ALIKES.length} LOOK_ALIKES (from ${path.join(MAIN, "test/core/digest/redact.test.ts")})`);
report.corpus1 = {};
for (const [name, eng] of ENGINES1) {
	let caught = 0;
	let exact = 0;
	const missed = [];
	const partial = [];
	const firedKinds = {};
	SECRETS.forEach(([kind, input, expected], i) => {
		const secrets = replacedParts(input, expected).map((p) => p.secret);
		const r = eng(input);
		const out = r.text;
		if (out === expected) exact++;
		const left = secrets.filter((s) => out.includes(s));
		const fired = r.findings ? [...new Set(r.findings.map((f) => f.rule))] : Object.keys(r.byKind);
		for (const k of fired) firedKinds[k] = (firedKinds[k] ?? 0) + 1;
		if (left.length === 0) caught++;
		else missed.push(`#${i} ${kind}${fired.length ? ` (fired: ${fired.join(",")})` : ""}`);
		if (left.length === 0 && r.findings) {
			// caught, but does a marker cover the whole secret? (a partial match leaves a piece of it)
			const leftPieces = secrets.filter((s) => {
				const at = input.indexOf(s);
				return !r.findings.some((f) => f.start <= at && f.end >= at + s.length);
			});
			if (leftPieces.length > 0) partial.push(`#${i} ${kind}`);
		}
	});
	const fps = [];
	LOOK_ALIKES.forEach((text, i) => {
		const r = eng(text);
		if (r.text !== text) {
			const parts = r.findings ? r.findings.map((f) => `${f.rule}:${JSON.stringify(shorten(f.secret, 24))}`) : replacedParts(text, r.text).map((p) => `${p.kind}:${JSON.stringify(shorten(p.secret, 24))}`);
			fps.push(`#${i} ${[...new Set(parts)].join(" ")}  in ${JSON.stringify(shorten(text, 50))}`);
		}
	});
	log(`\n${name}: caught ${caught}/${SECRETS.length}` + (name.startsWith("A") ? ` (output === expected: ${exact})` : "") + `; look-alikes changed ${fps.length}/${LOOK_ALIKES.length}`);
	if (missed.length) log(`  missed: ${missed.join("; ")}`);
	if (partial.length) log(`  caught only because a marker took part of the secret (rest left): ${partial.join("; ")}`);
	for (const f of fps) log(`  false positive ${f}`);
	if (name.startsWith("B gitleaks full")) log(`  (B raw -> full on the table's inputs and look-alikes: ${corpus1Drops})`);
	report.corpus1[name] = { caught, total: SECRETS.length, exact, missed, partial, falsePositives: fps, firedKinds };
}

// Extra rows beyond the table: PEM private keys, as the test's "shapes of text" block builds them.
// (Not part of the table; the pem() helper is rebuilt here, the key material is the test's own t.pemBody.)
{
	const pem = (label, nl) => `-----BEGIN ${label}-----${nl}${T.pemBody.join(nl)}${nl}-----END ${label}-----`;
	const rows = [];
	for (const label of ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "DSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]) rows.push([label, `$ cat key.pem\n${pem(label, "\n")}\n$ ls\n`]);
	rows.push(["RSA encrypted w/ headers", `before\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${T.pemBody.join("\n")}\n-----END RSA PRIVATE KEY-----\nafter`]);
	rows.push(["JSON-escaped (service account)", `{"type": "service_account", "private_key": "${pem("PRIVATE KEY", "\\n")}\\n", "client_email": "bot@p.iam.gserviceaccount.com"}`]);
	rows.push(["truncated (no END line)", `-----BEGIN OPENSSH PRIVATE KEY-----\n${T.pemBody[0]}\n${T.pemBody[1]}\n\n… (output truncated)\nNext step: chmod 600`]);
	rows.push(["CRLF", `a\r\n${pem("RSA PRIVATE KEY", "\r\n")}\r\nb`]);
	log(`\nExtra (PEM private keys as the test's "shapes of text" block builds them; a row is caught when no base64 body line is left):`);
	const line = [];
	for (const [name, eng] of ENGINES1) {
		const missed = rows.filter(([, text]) => {
			const out = eng(text).text;
			return T.pemBody.some((b) => out.includes(b));
		});
		line.push(`${name.split(" (")[0]}: ${rows.length - missed.length}/${rows.length}${missed.length ? ` (missed: ${missed.map(([n]) => n).join(", ")})` : ""}`);
	}
	for (const l of line) log(`  ${l}`);
	report.corpus1.pem = line;
	// Real keys have structure the table's synthetic ones lack: an OpenAI key carries "T3BlbkFJ"
	// (base64 "OpenAI") in its middle, a PEM body starts "MI" (ASN.1 SEQUENCE). Same rows, that added.
	const op = T.openaiProject;
	const realOpenai = op.slice(0, 82) + "T3BlbkFJ" + op.slice(82, 156);
	const realBody = ["MI" + T.pemBody[0].slice(2), ...T.pemBody.slice(1)];
	const realRows = [
		["OpenAI sk-proj with T3BlbkFJ", `OPENAI_API_KEY=${realOpenai}\nOPENAI_ORG=org-main`, [realOpenai]],
		["PEM body starting MI", `$ cat key.pem\n-----BEGIN PRIVATE KEY-----\n${realBody.join("\n")}\n-----END PRIVATE KEY-----\n$ ls\n`, realBody],
	];
	log(`Extra (real-structure variants of two table rows):`);
	for (const [name, eng] of ENGINES1) {
		const res = realRows.map(([n, text, secrets]) => `${n}: ${secrets.some((x) => eng(text).text.includes(x)) ? "missed" : "caught"}`);
		log(`  ${name.split(" (")[0]}: ${res.join("; ")}`);
	}
}

function shorten(s, n) {
	const one = s.replace(/\n/g, "⏎");
	return one.length <= n ? one : one.slice(0, n - 1) + "…";
}

// ---------------------------------------------------------------------------------------------
// Corpus 2: real transcripts, timed

if (!NO_CORPUS2) await corpus2();
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(report, null, 1));

async function corpus2() {
	let files;
	try {
		files = listJsonl(CORPUS).sort();
	} catch {
		log(`\n== Corpus 2: ${CORPUS} is missing: skipped`);
		report.corpus2 = { missing: CORPUS };
		return;
	}
	const sizes = files.map((f) => statSync(f).size);
	const totalBytes = sizes.reduce((a, b) => a + b, 0);
	let chosen = files.map((f, i) => [f, sizes[i]]);
	if (MIB > 0 && MIB * 2 ** 20 < totalBytes) {
		// Every k-th file, a fixed subset spread over the tree.
		const k = totalBytes / (MIB * 2 ** 20);
		chosen = chosen.filter((_, i) => Math.floor(i / k) !== Math.floor((i - 1) / k) || i === 0);
	}
	const chosenBytes = chosen.reduce((a, [, s]) => a + s, 0);
	log(`\n== Corpus 2: ${chosen.length}/${files.length} JSONL files, ${(chosenBytes / 2 ** 20).toFixed(1)} of ${(totalBytes / 2 ** 20).toFixed(1)} MiB, under ${CORPUS}`);
	log(`   strings: every string value of length >= 8 of every parsed line; ${ROUNDS} rounds per chunk of ~${CHUNK_MIB} MiB, engines in rotating order`);

	const timed = [
		["baseline", (s) => (s.toLowerCase().includes("zzzz") ? 1 : 0)],
		["A", (s) => engineA(s).count],
		["Bfull", (s) => engineBfull(s).findings.length],
		["Bsub", (s) => engineBsub(s).findings.length],
		["C", (s) => engineC(s).findings.length],
		...(args.includes("--ungated") ? [["Bungated", (s) => engineBungated(s).findings.length]] : []),
	];
	const times = Object.fromEntries(timed.map(([n]) => [n, new Array(ROUNDS).fill(0)]));
	const counts = { A: {}, Bfull: {}, Braw: {}, C: {} };
	const samples = { A: new Map(), Bfull: new Map(), Braw: new Map(), C: new Map() };
	const overlap = { both: 0, onlyA: 0, onlyB: 0 };
	const drops = {};
	const profile = args.includes("--profile") ? new Map() : undefined;
	let nStrings = 0;
	let nChars = 0;
	let nBytes = 0;
	let sink = 0;
	let chunkNo = 0;

	// Warm-up (untimed) on the first file, so JIT compilation is not billed to whichever runs first.
	{
		const warm = [];
		collect(chosen[0][0], warm);
		for (const [, fn] of timed) for (let r = 0; r < 2; r++) for (const s of warm) sink += fn(s);
	}

	let chunk = [];
	let chunkChars = 0;
	const flush = () => {
		if (chunk.length === 0) return;
		for (let r = 0; r < ROUNDS; r++) {
			const shift = (r + chunkNo) % timed.length;
			const order = [...timed.slice(shift), ...timed.slice(0, shift)];
			for (const [name, fn] of order) {
				const t0 = performance.now();
				let acc = 0;
				for (let i = 0; i < chunk.length; i++) acc += fn(chunk[i]);
				times[name][r] += performance.now() - t0;
				sink += acc;
			}
		}
		// Untimed: what each engine found.
		for (const s of chunk) {
			const a = engineA(s);
			for (const [k, v] of Object.entries(a.byKind)) counts.A[k] = (counts.A[k] ?? 0) + v;
			if (a.count > 0) for (const p of replacedParts(s, a.text)) addSample(samples.A, p.kind, s, p.start, p.secret);
			const bf = detect(gl, s, { full: true, stats: drops, profile: chunkNo === 0 ? profile : undefined });
			for (const f of bf) {
				counts.Bfull[f.rule] = (counts.Bfull[f.rule] ?? 0) + 1;
				addSample(samples.Bfull, f.rule, s, f.start, f.secret);
			}
			const br = detect(gl, s, { full: false });
			for (const f of br) {
				counts.Braw[f.rule] = (counts.Braw[f.rule] ?? 0) + 1;
				addSample(samples.Braw, f.rule, s, f.start, f.secret);
			}
			for (const f of secretlintDetect(s)) {
				counts.C[f.rule] = (counts.C[f.rule] ?? 0) + 1;
				addSample(samples.C, f.rule, s, f.start, f.secret);
			}
			if (a.count > 0 && bf.length > 0) overlap.both++;
			else if (a.count > 0) overlap.onlyA++;
			else if (bf.length > 0) overlap.onlyB++;
		}
		chunkNo++;
		chunk = [];
		chunkChars = 0;
	};

	for (const [file] of chosen) {
		const before = chunk.length;
		collect(file, chunk);
		for (let i = before; i < chunk.length; i++) {
			chunkChars += chunk[i].length;
			nChars += chunk[i].length;
			nBytes += Buffer.byteLength(chunk[i], "utf8");
		}
		nStrings += chunk.length - before;
		if (chunkChars >= CHUNK_MIB * 2 ** 20) flush();
	}
	flush();

	const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
	const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
	const mbs = (ms) => nBytes / 1e6 / (ms / 1000);
	log(`   ${nStrings} strings, ${(nBytes / 1e6).toFixed(1)} MB UTF-8 (${(nChars / 1e6).toFixed(1)} M chars), ${chunkNo} chunks; ${badLines} lines not parsable skipped; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
	if (ROUNDS > 0) log(`\n   engine     median ms   MB/s     x baseline   per-round ms`);
	else log(`   (--rounds 0: not timed)`);
	for (const [name] of ROUNDS > 0 ? timed : []) {
		log(`   ${name.padEnd(9)} ${med[name].toFixed(0).padStart(9)} ${mbs(med[name]).toFixed(1).padStart(7)} ${(med[name] / med.baseline).toFixed(1).padStart(10)}x   ${times[name].map((x) => x.toFixed(0)).join(" / ")}`);
	}
	if (ROUNDS > 0) log(`   time ratio Bfull/A = ${(med.Bfull / med.A).toFixed(1)}, Bsub/A = ${(med.Bsub / med.A).toFixed(1)}${med.Bungated ? `, Bungated/A = ${(med.Bungated / med.A).toFixed(1)}` : ""}  (>1: gitleaks on re2js is slower)`);
	if (ROUNDS > 0) log(`   Bfull = all rules, entropy+allowlists, test() gate; Bsub = same without generic-api-key; Braw (not timed) = no entropy/allowlists; C = secretlint preset, C/A = ${(med.C / med.A).toFixed(1)}`);
	log(`   B raw -> full: ${Object.values(counts.Braw).reduce((a, b) => a + b, 0)} raw findings; dropped by ${Object.entries(drops).map(([k, v]) => `${k} ${v}`).join(", ") || "nothing"}`);
	if (profile) {
		const rows = [...profile.entries()].sort((a, b) => b[1] - a[1]);
		const sum = rows.reduce((a, [, v]) => a + v, 0);
		log(`   B full, time per rule on chunk 1 (${sum.toFixed(0)} ms in rules): ${rows.slice(0, 8).map(([k, v]) => `${k} ${((100 * v) / sum).toFixed(0)}%`).join(", ")}`);
	}
	log(`   strings changed: by both ${overlap.both}, only A ${overlap.onlyA}, only Bfull ${overlap.onlyB}`);

	for (const [name, label] of [["A", "A hand-written"], ["Bfull", "B gitleaks full"], ["Braw", "B gitleaks raw"], ["C", "C secretlint"]]) {
		const entries = Object.entries(counts[name]).sort((a, b) => b[1] - a[1]);
		const total = entries.reduce((a, [, v]) => a + v, 0);
		log(`\n   ${label}: ${total} matches, ${entries.length} kinds: ${entries.map(([k, v]) => `${k} ${v}`).join(", ") || "none"}`);
		for (const s of pickSamples(samples[name], SAMPLES, counts[name])) log(`     ${s}`);
	}
	report.corpus2 = { drops, files: chosen.length, bytesOnDisk: chosenBytes, strings: nStrings, stringBytes: nBytes, times, medians: med, mbPerS: Object.fromEntries(Object.entries(med).map(([k, v]) => [k, mbs(v)])), counts, overlap, sink };
}

function listJsonl(dir) {
	const out = [];
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) out.push(...listJsonl(p));
		else if (e.name.endsWith(".jsonl")) out.push(p);
	}
	return out;
}


function collect(file, into) {
	const text = readFileSync(file, "utf8");
	let start = 0;
	while (start < text.length) {
		let end = text.indexOf("\n", start);
		if (end === -1) end = text.length;
		if (end > start) {
			try {
				walk(JSON.parse(text.slice(start, end)), into);
			} catch {
				badLines++; // not one JSON value (a torn or concatenated line)
			}
		}
		start = end + 1;
	}
}

function walk(v, into) {
	if (typeof v === "string") {
		if (v.length >= 8) into.push(v);
	} else if (Array.isArray(v)) for (const x of v) walk(x, into);
	else if (v !== null && typeof v === "object") for (const k in v) walk(v[k], into);
}

/** Distinct sample secrets per kind, each with a bit of context, the secret's middle masked. */
function addSample(map, kind, text, start, secret) {
	let m = map.get(kind);
	if (!m) map.set(kind, (m = new Map()));
	if (m.size >= SAMPLES || m.has(secret)) return;
	const before = text.slice(Math.max(0, start - 20), start);
	const after = text.slice(start + secret.length, start + secret.length + 6);
	m.set(secret, `${kind}: ${esc(before)}⟦${mask(secret)}⟧${esc(after)}`);
}

function mask(s) {
	const cls = (/[A-Z]/.test(s) ? "A" : "") + (/[a-z]/.test(s) ? "a" : "") + (/\d/.test(s) ? "9" : "") + (/[^A-Za-z0-9]/.test(s) ? "#" : "");
	const e = esc(s);
	const shown = e.length <= 8 ? e.slice(0, 2) + "…" : e.slice(0, 4) + "…" + e.slice(-2);
	return `${shown} ${s.length}ch ${cls}`;
}

function esc(s) {
	return s.replace(/\n/g, "⏎").replace(/\r/g, "␍").replace(/\t/g, "⇥");
}

/** Up to n samples, round-robin over kinds (most frequent kinds first). */
function pickSamples(map, n, counts) {
	const lists = [...map.entries()].sort((a, b) => (counts[b[0]] ?? 0) - (counts[a[0]] ?? 0)).map(([, m]) => [...m.values()]);
	const out = [];
	for (let i = 0; out.length < n && lists.some((l) => l.length > i); i++) for (const l of lists) if (l.length > i && out.length < n) out.push(l[i]);
	return out;
}
