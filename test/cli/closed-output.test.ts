import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** A real child whose stdout is closed before it prints, as a hook runner or `| head` does. */
let work: string;
let script: string;

beforeAll(async () => {
	work = await mkdtemp(join(tmpdir(), "ai-memory-closed-output-"));
	const entry = join(work, "entry.ts");
	// `hook`, or `full` after the mode: prints a word, then (a turn later, as the hook does) exitWhenFlushed(0).
	// `exit`: prints 4 MiB and ends with exitWhenFlushed(3), a timer still set that would hold a natural end.
	await writeFile(
		entry,
		`import { exitWhenFlushed, ignoreClosedOutput, printOut, stderrIsTerminal } from ${JSON.stringify(join(__dirname, "../../src/cli/closed-output"))};\n` +
			`if (process.argv[2] === "tty") { process.stdout.write(String(stderrIsTerminal())); process.exit(0); }\n` +
			// \`print\`: 4 MiB by printOut (a byte count in argv[3] for fewer), then exitWhenFlushed(0).
			`if (process.argv[2] === "print") { ignoreClosedOutput(); setTimeout(() => { printOut("p".repeat(Number(process.argv[3] ?? 4 << 20))); exitWhenFlushed(0); }, 300); }\nelse {\n` +
			`if (process.argv[2] === "hook") ignoreClosedOutput(true);\n` +
			`else if (process.argv[2] !== "off") ignoreClosedOutput();\n` +
			`if (process.argv[2] === "hook" || process.argv[3] === "full") setTimeout(() => process.stdout.write("context", () => void Promise.resolve().then(() => exitWhenFlushed(0))), 50);\nelse ` +
			`if (process.argv[2] === "exit") { setInterval(() => undefined, 1000); setTimeout(() => { process.stdout.write("y".repeat(4 << 20)); exitWhenFlushed(3); }, 300); }\n` +
			`else setTimeout(() => { process.stdout.write("x".repeat(1 << 20)); process.exitCode = 0; }, 300);\n}\n`,
	);
	script = join(work, "child.cjs");
	await build({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", outfile: script, logLevel: "warning" });
});

afterAll(async () => {
	await rm(work, { recursive: true, force: true });
});

async function run(mode: "on" | "off" | "exit" | "print", closed = true): Promise<{ code: number | null; stderr: string; stdout: number }> {
	const child = spawn(process.execPath, [script, mode], { stdio: ["ignore", "pipe", "pipe"] });
	let stdout = 0;
	if (closed) child.stdout.destroy();
	else {
		// Read slowly: the child's writes wait on the pipe.
		child.stdout.on("data", (d: Buffer) => {
			stdout += d.length;
			child.stdout.pause();
			setTimeout(() => child.stdout.resume(), 2);
		});
	}
	let stderr = "";
	child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
	const [code] = (await once(child, "close")) as [number | null];
	return { code, stderr, stdout };
}

describe("output to a reader that went away", () => {
	it("is dropped quietly, the exit code kept (without it: an EPIPE stack trace and exit 1)", async () => {
		// The streams are made when first used, after the handler is set (see ignoreClosedOutput).
		expect(await run("on")).toEqual({ code: 0, stderr: "", stdout: 0 });
		const without = await run("off");
		expect(without.code).not.toBe(0);
		expect(without.stderr).toMatch(/EPIPE/);
	});
});

describe("output that cannot be written (a full disk: stdout to /dev/full)", () => {
	const toFull = async (mode: string): Promise<{ code: number | null; stderr: string }> => {
		const full = await open("/dev/full", "w");
		try {
			const child = spawn(process.execPath, [script, mode, "full"], { stdio: ["ignore", full.fd, "pipe"] });
			let stderr = "";
			child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
			const [code] = (await once(child, "close")) as [number | null];
			return { code, stderr };
		} finally {
			await full.close();
		}
	};

	it.skipIf(!existsSync("/dev/full"))("a hook drops it and exits 0; a command says so in a line and exits 1, never with a stack", async () => {
		expect(await toFull("hook")).toEqual({ code: 0, stderr: "" });
		expect(await toFull("on")).toEqual({ code: 1, stderr: "ai-memory: what it printed could not be written (ENOSPC)\n" });
	});
});

describe("exitWhenFlushed", () => {
	it("ends with its code once all that was printed is out, though a timer is still set", async () => {
		expect(await run("exit", false)).toEqual({ code: 3, stderr: "", stdout: 4 << 20 });
	});

	it("ends with its code when the reader went away", async () => {
		expect(await run("exit")).toEqual({ code: 3, stderr: "", stdout: 0 });
	});
});

describe("printOut (the sync's report, without making process.stdout)", () => {
	it("gets all of it to a slow reader, and ends with the exit code", async () => {
		expect(await run("print", false)).toEqual({ code: 0, stderr: "", stdout: 4 << 20 });
	});

	it("drops it quietly when the reader went away", async () => {
		expect(await run("print")).toEqual({ code: 0, stderr: "", stdout: 0 });
	});

	it.skipIf(!existsSync("/dev/full"))("says in a line that it could not be written, and exits 1 (a full disk: stdout to /dev/full)", async () => {
		const full = await open("/dev/full", "w");
		try {
			const child = spawn(process.execPath, [script, "print", "100"], { stdio: ["ignore", full.fd, "pipe"] });
			let stderr = "";
			child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
			const [code] = (await once(child, "close")) as [number | null];
			expect({ code, stderr }).toEqual({ code: 1, stderr: "ai-memory: what it printed could not be written (ENOSPC)\n" });
		} finally {
			await full.close();
		}
	});
});

describe("whether stderr is a terminal", () => {
	it("is asked of the file (never making process.stderr): a pipe, a file and /dev/null are none, a pseudo-terminal is one", async () => {
		const ask = async (stderr: "pipe" | number) => {
			const child = spawn(process.execPath, [script, "tty"], { stdio: ["ignore", "pipe", stderr] });
			let out = "";
			child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
			await once(child, "close");
			return out;
		};
		expect(await ask("pipe")).toBe("false");
		const file = await open(join(work, "stderr.txt"), "w");
		expect(await ask(file.fd)).toBe("false");
		await file.close();
		const devNull = await open("/dev/null", "w");
		expect(await ask(devNull.fd)).toBe("false");
		await devNull.close();
		// `script` (util-linux) gives the child a pseudo-terminal for every stream.
		const tty = spawn("script", ["-qec", `${process.execPath} ${script} tty`, "/dev/null"], { stdio: ["ignore", "pipe", "ignore"] });
		let seen = "";
		tty.stdout.on("data", (d: Buffer) => (seen += d.toString()));
		const [code] = (await once(tty, "close").catch(() => [127])) as [number | null];
		if (code === 0) expect(seen.trim()).toBe("true");
	});
});
