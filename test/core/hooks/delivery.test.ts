import { describe, expect, it } from "vitest";
import { detailsOf, lastSessionDelivery, type DeliveryEntry, type DeliveryProject } from "../../../src/core/hooks/delivery";

const project: DeliveryProject = { path: "/code/api", key: "/code/api", mode: "lazy", target: "CLAUDE.md", blockPresent: true, blockInFile: true, instructionsHook: true };
const line = (at: string, hook: string, detail: string, status: "ok" | "error" = "ok"): DeliveryEntry => ({ at: `2026-12-01T10:00:${at}Z`, hook, status, detail });

describe("what reached the last session", () => {
	it("lists the block loaded, the facade, each recall and tool answer of the last session only", () => {
		const log = [
			line("01", "session-start", "project=/code/api session=old mode=lazy facade=in-file printed=0B"),
			line("02", "mcp:search_sessions", "project=/code/api printed=999B"),
			line("10", "instructions-loaded", 'project=/code/api session=new block=yes file="/code/api/CLAUDE.md" reason=session_start printed=0B'),
			line("11", "session-start", "project=/code/api session=new mode=lazy source=startup facade=in-file printed=0B"),
			line("12", "user-prompt-submit", 'project=/code/api session=new trigger=intent:"continue" facts=1 printed=2400B'),
			line("13", "mcp:search_sessions", "project=/code/api printed=812B"),
			line("14", "mcp:get_session", "project=/code/api printed=1500B"),
			line("15", "mcp:search_sessions", "project=/code/other printed=5B"),
			line("16", "session-end", "project=/code/api session=new reason=other sync=started printed=0B"),
		];
		const d = lastSessionDelivery(log, project);
		expect(d.sessionId).toBe("new");
		expect(d.lines.slice(1)).toEqual(["  CLAUDE.md loaded with the block (InstructionsLoaded, session_start)", "  Facade: in CLAUDE.md", '  Recall on a prompt (intent:"continue"): 2400 bytes, 1 facts', "  Tool search_sessions: 812 bytes", "  Tool get_session: 1500 bytes"]);
		expect(d.warnings).toEqual([]);
	});

	it("warns of what was produced but never delivered, or delivered twice", () => {
		const notLoaded = lastSessionDelivery([line("01", "instructions-loaded", 'project=/code/api session=s block=no file="/home/me/.claude/CLAUDE.md" reason=session_start'), line("02", "session-start", "project=/code/api session=s facade=in-file")], project);
		expect(notLoaded.warnings).toEqual(["the block in CLAUDE.md was written but the last session did not load it (Claude Code loaded: CLAUDE.md)"]);
		const twice = lastSessionDelivery([line("01", "instructions-loaded", 'project=/code/api session=s block=yes file="/code/api/CLAUDE.md"'), line("02", "session-start", "project=/code/api session=s facade=printed printed=500B")], project);
		expect(twice.warnings).toContain("the facade reached the last session twice: printed at session start and in the block");
		const never = lastSessionDelivery([line("02", "session-start", "project=/code/api session=s mode=lazy facade=in-file printed=0B")], { ...project, blockPresent: false, blockInFile: false });
		expect(never.warnings).toEqual(["the facade was produced but never delivered: CLAUDE.md could not take the block and the session start printed nothing"]);
		const empty = lastSessionDelivery([line("01", "instructions-loaded", 'project=/code/api session=s block=yes file="/code/api/CLAUDE.md"'), line("02", "user-prompt-submit", 'project=/code/api session=s trigger=intent:"continue" no-context-yet printed=0B'), line("03", "mcp:get_session", 'project=/code/api error="No session has the id"', "error")], project);
		expect(empty.warnings).toEqual(['a prompt asked for the past (intent:"continue") but nothing was delivered: no context prepared yet (run a sync)']);
		expect(empty.lines).toContain("  Tool get_session: error: No session has the id");
		expect(lastSessionDelivery([], project)).toEqual({ lines: ["No session has run with the hooks yet."], warnings: [] });
	});

	it("reads details back, paths with spaces and quoted values included", () => {
		expect(detailsOf('project=/My Code/api session=s1 file="/My Code/a b.md" trigger=intent:"x y" printed=12B')).toEqual({ project: "/My Code/api", session: "s1", file: "/My Code/a b.md", trigger: 'intent:"x y"', printed: "12B" });
	});
});
