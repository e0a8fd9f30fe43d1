import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A hook's stdin as Claude Code gives it (a socket), and as anything else might (a FIFO, a file,
 * a terminal's `/dev/null`, a writer that never closes it), read by `readStdin` in a real child.
 */
const repo = resolve(__dirname, "..", "..");
let dir: string;
let child: string;

const CHILD = `
const { readStdin } = require("./hook-stdin.cjs");
if (process.env.NO_BINDING) process.binding = undefined;
const started = Date.now();
readStdin(Number(process.argv[2]), Number(process.argv[3])).then((text) => {
	process.stdout.write(JSON.stringify({ length: text.length, head: text.slice(0, 24), ms: Date.now() - started }));
	process.exit(0);
});
`;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "hook-stdin-"));
	await build({ entryPoints: [join(repo, "src/cli/hook-stdin.ts")], bundle: true, platform: "node", format: "cjs", outfile: join(dir, "hook-stdin.cjs"), logLevel: "silent" });
	child = join(dir, "child.cjs");
	writeFileSync(child, CHILD);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Read = { length: number; head: string; ms: number };
const parse = (stdout: string) => JSON.parse(stdout) as Read;

describe.each([["made non-blocking", {}], ["as Node's stream (no internal binding)", { NO_BINDING: "1" }]])("readStdin, %s", (_how, env) => {
	it("reads a socket to its end (what Claude Code gives a hook), in one piece or many", () => {
		const input = `{"prompt":"${"é".repeat(200_000)}"}`;
		const run = spawnSync(process.execPath, [child, "3000", String(16 * 1024 * 1024)], { input, encoding: "utf8", env: { ...process.env, ...env } });
		expect(run.stderr).toBe("");
		expect(parse(run.stdout)).toMatchObject({ length: input.length, head: input.slice(0, 24) });
	});

	it("a writer that never closes it: what came, after the timeout, never a hang", async () => {
		const proc = spawn(process.execPath, [child, "400", "1000000"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
		proc.stdin.write('{"prompt":"partial');
		let stdout = "";
		proc.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
		const code = await new Promise<number | null>((done) => proc.on("exit", done));
		proc.stdin.destroy();
		expect(code).toBe(0);
		const read = parse(stdout);
		expect(read.head).toBe('{"prompt":"partial');
		expect(read.ms).toBeGreaterThanOrEqual(350);
		expect(read.ms).toBeLessThan(3000);
	});

	it("stops past the most it reads: a huge paste is no JSON the hook reads, and no run out of memory", () => {
		const run = spawnSync(process.execPath, [child, "3000", String(256 * 1024)], { input: "x".repeat(4 * 1024 * 1024), encoding: "utf8", env: { ...process.env, ...env } });
		const read = parse(run.stdout);
		expect(read.length).toBeGreaterThan(256 * 1024);
		expect(read.length).toBeLessThan(4 * 1024 * 1024);
	});
});

describe("readStdin, other kinds of stdin", () => {
	it("a FIFO, a plain file and /dev/null", () => {
		const file = join(dir, "input.json");
		writeFileSync(file, '{"prompt":"from a file"}');
		const fromFile = spawnSync("sh", ["-c", `"${process.execPath}" "${child}" 3000 1000000 < "${file}"`], { encoding: "utf8" });
		expect(parse(fromFile.stdout)).toMatchObject({ length: 24, head: '{"prompt":"from a file"}' });
		const fifo = join(dir, "input.fifo");
		expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
		const fromFifo = spawnSync("sh", ["-c", `(sleep 0.2; printf '{"prompt":"late"}') > "${fifo}" & "${process.execPath}" "${child}" 3000 1000000 < "${fifo}"`], { encoding: "utf8", timeout: 10_000 });
		expect(parse(fromFifo.stdout)).toMatchObject({ length: 17, head: '{"prompt":"late"}' });
		const fromNull = spawnSync("sh", ["-c", `"${process.execPath}" "${child}" 3000 1000000 < /dev/null`], { encoding: "utf8", timeout: 10_000 });
		expect(parse(fromNull.stdout)).toMatchObject({ length: 0 });
		const closed = spawnSync("sh", ["-c", `"${process.execPath}" "${child}" 3000 1000000 <&-`], { encoding: "utf8", timeout: 10_000 });
		expect(parse(closed.stdout)).toMatchObject({ length: 0 });
	});
});
