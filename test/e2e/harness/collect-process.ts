import type { ChildProcessWithoutNullStreams, ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";

/** A client's process run to its end: its exit, and all it wrote; killed after `timeoutMs`. */
export async function collectProcess(
	child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
	timeoutMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8");
	child.stderr.setEncoding("utf8");
	child.stdout.on("data", (c: string) => (stdout += c));
	child.stderr.on("data", (c: string) => (stderr += c));
	const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
		const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
		child.on("error", (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on("close", (c, s) => {
			clearTimeout(timer);
			resolve({ code: c, signal: s });
		});
	});
	return { code, signal, stdout, stderr };
}
