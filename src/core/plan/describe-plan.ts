import { removeMarkedBlock, upsertMarkedBlock } from "../text/marked-block";
import { mergeNote, SESSION_NOTE_KEYS } from "../notes/note-regions";
import { noteBody } from "../notes/render-session-note";
import type { SyncPlan } from "./sync-plan";

/** One change a plan would make, for `sync --dry-run`. */
export interface PlannedChange {
	action: "move" | "create" | "update" | "delete";
	/** A vault path, or an absolute path outside the vault (CLAUDE.md, Claude Code's memory). */
	target: string;
	/** For a move: where to. */
	to?: string;
}

/** What carrying out the plan would change, in order; writes that would leave a file as it is are left out. */
export function describePlan(plan: SyncPlan): PlannedChange[] {
	const changes: PlannedChange[] = plan.moves.map((m) => ({ action: "move", target: m.from, to: m.to }));
	for (const write of plan.writes) {
		const action = (text: string | null, expected: string | null): PlannedChange["action"] => (text === null ? "delete" : expected === null ? "create" : "update");
		if (write.kind === "session-note") {
			const rendered = write.render();
			const merged = mergeNote(write.expected, rendered.frontmatter, noteBody(rendered), SESSION_NOTE_KEYS);
			if (merged.ok && merged.text !== write.expected) changes.push({ action: action(merged.text, write.expected), target: write.path });
		} else if (write.kind === "note") changes.push({ action: action(write.text, write.expected), target: write.path });
		else if (write.kind === "claude-memory") changes.push({ action: action(write.text, write.expected), target: `${write.folder}/${write.shown ?? write.name}` });
		else {
			const result = write.remove ? removeMarkedBlock(write.expected ?? "") : upsertMarkedBlock(write.expected ?? "", write.block);
			if (result.ok && result.changed) changes.push({ action: write.expected === null ? "create" : "update", target: `${write.projectPath.replace(/[\\/]+$/, "")}/${write.target}` });
		}
	}
	return changes;
}
