import { splitFrontmatter } from "../memory/fact-file";
import { RecallIndex, type SerializedRecallIndex } from "../memory/recall";
import type { ProjectSettings } from "../settings";
import type { MemoryPlan } from "./plan-memory";
import type { ProjectContext } from "./project-context";

/**
 * What a project's Claude Code hooks print, worked out at sync time so that a hook only reads one
 * small file: the facade (lazy mode's session start), the context packet and the facts with their
 * recall index (for prompts that ask for the past).
 */
export interface HookContext {
	version: 1;
	projectPath: string;
	mode: ProjectSettings["mode"];
	/** Lazy mode's facade (empty in eager mode, where CLAUDE.md has the block). */
	facade: string;
	/**
	 * The project's files hold the block (the facade in lazy mode), so the session start prints
	 * nothing: the model would get it twice. False when a file could not take it (broken markers,
	 * not UTF-8): the SessionStart hook delivers it then. Unset in contexts of older releases.
	 */
	blockInFile?: boolean;
	/** The packet's Markdown, without properties. */
	packet: string;
	packetPath: string;
	recall: SerializedRecallIndex;
	/** Fact bodies by file name, for the facts recall picks. */
	bodies: Record<string, string>;
	/** The fingerprint of the repository it was made for (`projects/replaced-repository`): another one made at the path since gets none of it. */
	fingerprint?: string;
}

/**
 * The most of a fact's body a hook context keeps: the prompt hook prints 1,200 characters of one and
 * `recall_facts` 1,500, each cut at a line within them. Whole bodies made the file every session
 * start and prompt reads as large as the memory (seven facts of 40 MB: 286 MiB, past what a file
 * read whole may be, and recall was gone for the project).
 */
export const HOOK_BODY_MAX = 4_000;

export function hookContextOf(project: ProjectSettings, context: ProjectContext, memory: Pick<MemoryPlan, "facts" | "texts">, blockInFile = true, fingerprint?: string): HookContext {
	const bodies: Record<string, string> = {};
	for (const fact of memory.facts) bodies[fact.file] = splitFrontmatter(memory.texts.get(fact.file) ?? "").body.trim().slice(0, HOOK_BODY_MAX);
	return {
		version: 1,
		projectPath: project.path,
		mode: project.mode,
		facade: project.mode === "lazy" ? context.block : "",
		blockInFile,
		packet: context.packet.note.body,
		packetPath: context.packetLocation,
		recall: RecallIndex.build(memory.facts).serialize(),
		bodies,
		...(fingerprint === undefined ? {} : { fingerprint }),
	};
}
