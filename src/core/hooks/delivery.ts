/**
 * What reached a project's last session, from the delivery log (hooks.log: one line per hook run
 * and per MCP tool answer): the instruction files Claude Code loaded (InstructionsLoaded), the
 * facade, each recall and tool answer with its size; and a warning for what was produced but
 * never delivered, or delivered twice.
 */

export interface DeliveryEntry {
	at: string;
	/** `session-start`, `instructions-loaded`, `user-prompt-submit`, …, or `mcp:<tool>`. */
	hook: string;
	status: "ok" | "error";
	detail: string;
}

export interface DeliveryProject {
	path: string;
	/** Its identity (repository root), as the MCP answers name it. */
	key: string;
	mode: "eager" | "lazy";
	target: string;
	/** The target file holds the block now. */
	blockPresent: boolean;
	/** The last sync could write the block into the project's files (`HookContext.blockInFile`). */
	blockInFile?: boolean;
	/** Our InstructionsLoaded hook is installed. */
	instructionsHook: boolean;
}

export interface Delivery {
	sessionId?: string;
	lines: string[];
	warnings: string[];
}

/** `key=value` details (a value runs to the next ` key=`; JSON-quoted ones are read back). */
export function detailsOf(detail: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const part of detail.split(/ (?=[a-z][a-z-]*=)/)) {
		const eq = part.indexOf("=");
		if (eq <= 0) continue;
		let value = part.slice(eq + 1);
		if (value.startsWith('"') && value.endsWith('"')) {
			try {
				value = JSON.parse(value) as string;
			} catch {
				// Kept as written.
			}
		}
		out[part.slice(0, eq)] = value;
	}
	return out;
}

const bytes = (d: Record<string, string>) => Number(/^(\d+)B$/.exec(d.printed ?? "")?.[1] ?? 0);

export function lastSessionDelivery(entries: readonly DeliveryEntry[], project: DeliveryProject): Delivery {
	const mine = entries.map((e) => ({ ...e, d: detailsOf(e.detail) })).filter((e) => e.d.project === project.path || (e.hook.startsWith("mcp:") && (e.d.project ?? "").split(",").some((p) => p === project.key || p === project.path)));
	const sessionId = [...mine].reverse().find((e) => e.d.session !== undefined)?.d.session;
	if (sessionId === undefined) return { lines: ["No session has run with the hooks yet."], warnings: [] };
	const ofSession = mine.filter((e) => e.d.session === sessionId);
	const from = ofSession[0]!.at;
	const end = ofSession.find((e) => e.hook === "session-end")?.at;
	// Tool answers name no session: those of this project while it ran (until the next session began).
	const next = mine.find((e) => e.d.session !== undefined && e.d.session !== sessionId && e.at > from)?.at;
	const tools = mine.filter((e) => e.hook.startsWith("mcp:") && e.at >= from && (end === undefined || e.at <= end) && (next === undefined || e.at < next));
	const lines = [`Last session: ${sessionId} (from ${from}${end ? ` to ${end}` : ", still running or ended without SessionEnd"})`];
	const warnings: string[] = [];

	const loaded = ofSession.filter((e) => e.hook === "instructions-loaded");
	const withBlock = loaded.filter((e) => e.d.block === "yes");
	for (const e of withBlock) lines.push(`  ${shortName(e.d.file ?? project.target)} loaded with the block (InstructionsLoaded, ${e.d.reason ?? "?"})`);
	const others = loaded.filter((e) => e.d.block !== "yes").map((e) => shortName(e.d.file ?? "?"));
	if (others.length > 0) lines.push(`  Also loaded: ${[...new Set(others)].join(", ")}`);
	const start = ofSession.find((e) => e.hook === "session-start");
	const printedFacade = start !== undefined && start.d.facade === "printed";
	if (project.mode === "lazy" && start) lines.push(`  Facade: ${printedFacade ? `printed at session start (${bytes(start.d)} bytes)` : withBlock.length > 0 || start.d.facade === "in-file" ? `in ${project.target}` : "not printed"}`);
	for (const e of ofSession.filter((x) => x.hook === "user-prompt-submit" && bytes(x.d) > 0)) lines.push(`  Recall on a prompt (${e.d.trigger ?? "?"}): ${bytes(e.d)} bytes${e.d.facts ? `, ${e.d.facts} facts` : ""}`);
	for (const e of tools) lines.push(`  Tool ${e.hook.slice(4)}: ${e.status === "ok" ? `${bytes(e.d)} bytes` : `error: ${e.d.error ?? e.detail}`}`);
	if (tools.length === 0) lines.push("  No recall tool was called.");

	if (project.blockPresent && project.instructionsHook && loaded.length > 0 && withBlock.length === 0) warnings.push(`the block in ${project.target} was written but the last session did not load it (Claude Code loaded: ${others.join(", ") || "nothing"})`);
	if (project.blockPresent && project.instructionsHook && loaded.length === 0) warnings.push(`the last session loaded no instruction file (or ran before the InstructionsLoaded hook was installed): the block in ${project.target} may not have reached it`);
	if (printedFacade && withBlock.length > 0) warnings.push("the facade reached the last session twice: printed at session start and in the block");
	if (project.mode === "lazy" && project.blockInFile === false && start && !printedFacade) warnings.push(`the facade was produced but never delivered: ${project.target} could not take the block and the session start printed nothing`);
	for (const e of ofSession.filter((x) => x.hook === "user-prompt-submit" && bytes(x.d) === 0 && /no-context-yet/.test(x.detail))) warnings.push(`a prompt asked for the past (${(e.d.trigger ?? "?").replace(/ no-context-yet$/, "")}) but nothing was delivered: no context prepared yet (run a sync)`);
	for (const e of ofSession.filter((x) => x.status === "error")) warnings.push(`${e.hook} failed: ${e.detail}`);
	return { sessionId, lines, warnings };
}

function shortName(path: string): string {
	return path.split(/[\\/]/).slice(-1)[0] ?? path;
}
