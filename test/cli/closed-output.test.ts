import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
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
	await writeFile(entry, `import { ignoreClosedOutput } from ${JSON.stringify(join(__dirname, "../../src/cli/closed-output"))};\nif (process.argv[2] === "on") ignoreClosedOutput();\nsetTimeout(() => { process.stdout.write("x".repeat(1 << 20)); process.exitCode = 0; }, 300);\n`);
	script = join(work, "child.cjs");
	await build({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", outfile: script, logLevel: "warning" });
});

afterAll(async () => {
	await rm(work, { recursive: true, force: true });
});

async function run(mode: "on" | "off"): Promise<{ code: number | null; stderr: string }> {
	const child = spawn(process.execPath, [script, mode], { stdio: ["ignore", "pipe", "pipe"] });
	child.stdout.destroy();
	let stderr = "";
	child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
	const [code] = (await once(child, "exit")) as [number | null];
	return { code, stderr };
}

describe("output to a reader that went away", () => {
	it("is dropped quietly, the exit code kept (without it: an EPIPE stack trace and exit 1)", async () => {
		// The streams are made when first used, after the handler is set (see ignoreClosedOutput).
		expect(await run("on")).toEqual({ code: 0, stderr: "" });
		const without = await run("off");
		expect(without.code).not.toBe(0);
		expect(without.stderr).toMatch(/EPIPE/);
	});
});
