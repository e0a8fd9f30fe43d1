import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import type { RecordedRequest } from "./stub-server.js";

const repo = resolve(__dirname, "..", "..", "..");

/** `dist/cli.cjs`, built from the current sources (a stale bundle would test old code). */
export function buildCli(): string {
	const build = spawnSync(process.execPath, [join(repo, "esbuild.config.mjs"), "cli"], { cwd: repo, encoding: "utf8" });
	if (build.status !== 0) throw new Error(build.stderr);
	return join(repo, "dist", "cli.cjs");
}

/** Every string in a request body (system blocks, messages, reminders), joined by newlines. */
export function requestText(req: RecordedRequest): string {
	const out: string[] = [];
	const walk = (v: unknown): void => {
		if (typeof v === "string") out.push(v);
		else if (Array.isArray(v)) v.forEach(walk);
		else if (v && typeof v === "object") Object.values(v).forEach(walk);
	};
	walk(req.body);
	return out.join("\n");
}
