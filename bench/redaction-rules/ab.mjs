#!/usr/bin/env node
// A/B of the redactor against itself at another commit: the same strings (every string value of
// every JSONL line under the given folders, as the sync redacts a model's strings), both
// redactors in one process, rounds interleaved (A B, B A, …), median times and their ratio; and
// every string the two redact differently (a new rule's catches, or its false positives).
// Usage: node bench/redaction-rules/ab.mjs [--base REV] [--rounds N] [--diffs N] DIR...
//   --base REV  the commit A is built from (default main); B is the working tree.
//   DIR...      transcript folders (default /work/shared/corpus/claude-transcripts{,-2}).
// Needs only the project's own esbuild (run from the repository, after npm ci).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const log = (text) => process.stdout.write(`${text}\n`);
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
	// The comment at the top of this file.
	const lines = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(1);
	log(lines.slice(0, lines.findIndex((line) => !line.startsWith("//"))).map((line) => line.slice(3)).join("\n"));
	process.exit(0);
}
const opt = (name, dflt) => {
	const i = args.indexOf(`--${name}`);
	if (i === -1) return dflt;
	const [value] = args.splice(i, 2).slice(1);
	return value;
};
const BASE = opt("base", "main");
const ROUNDS = Number(opt("rounds", "9"));
const DIFFS = Number(opt("diffs", "20"));
const DIRS = args.length > 0 ? args : ["/work/shared/corpus/claude-transcripts", "/work/shared/corpus/claude-transcripts-2"];

const tmp = mkdtempSync(path.join(tmpdir(), "redaction-ab-"));
const esbuild = createRequire(path.join(ROOT, "package.json"))("esbuild");
function bundle(entry, out) {
	esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", outfile: out, external: ["re2js"], nodePaths: [path.join(ROOT, "node_modules")], logLevel: "error" });
	return createRequire(out)(out).createRedactor();
}
// A from the base's own files: the working tree's modules beside the base's redact.ts (line-continuation.ts, …) made A half B.
const base = path.join(tmp, "base");
mkdirSync(base);
execFileSync("sh", ["-c", `git -C "$0" archive "$1" src/core | tar -x -C "$2"`, ROOT, BASE, base]);
const A = bundle(path.join(base, "src/core/digest/redact.ts"), path.join(tmp, "a.cjs"));
const B = bundle(path.join(ROOT, "src/core/digest/redact.ts"), path.join(tmp, "b.cjs"));

const files = [];
const walk = (dir) => {
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) walk(p);
		else if (p.endsWith(".jsonl")) files.push(p);
	}
};
DIRS.forEach(walk);
const strings = [];
let chars = 0;
const collect = (v) => {
	if (typeof v === "string") {
		if (v !== "") {
			strings.push(v);
			chars += v.length;
		}
	} else if (Array.isArray(v)) v.forEach(collect);
	else if (v && typeof v === "object") Object.values(v).forEach(collect);
};
for (const file of files) {
	for (const line of readFileSync(file, "utf8").split("\n")) {
		try {
			if (line !== "") collect(JSON.parse(line));
		} catch {
			// a malformed line: skipped, as the sync does
		}
	}
}
const mib = chars / 1048576;
log(`${files.length} files, ${strings.length} strings, ${mib.toFixed(1)} MiB of text; A = ${BASE}, B = working tree`);

let diffs = 0;
for (const s of strings) {
	const a = A.redact(s);
	const b = B.redact(s);
	if (a === b) continue;
	if (++diffs > DIFFS) continue;
	let i = 0;
	while (a[i] === b[i]) i++;
	log(`A: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 80))}\nB: ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 80))}`);
}
log(`strings redacted differently: ${diffs}`);

const time = (r) => {
	const t = performance.now();
	for (const s of strings) r.redact(s);
	return performance.now() - t;
};
// Warm-up.
time(A);
time(B);
const ta = [];
const tb = [];
for (let i = 0; i < ROUNDS; i++) {
	if (i % 2 === 0) {
		ta.push(time(A));
		tb.push(time(B));
	} else {
		tb.push(time(B));
		ta.push(time(A));
	}
}
const median = (x) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
const [ma, mb] = [median(ta), median(tb)];
log(`A ${ma.toFixed(0)} ms (${(mib / ma * 1000).toFixed(1)} MiB/s)  B ${mb.toFixed(0)} ms (${(mib / mb * 1000).toFixed(1)} MiB/s)  B/A ${(mb / ma).toFixed(3)}`);
log(`A rounds: ${ta.map((x) => x.toFixed(0)).join(" ")}\nB rounds: ${tb.map((x) => x.toFixed(0)).join(" ")}`);
