import { factSlug, readFact, type FactInfo } from "../memory/fact-file";
import { updateMemoryIndex } from "../memory/memory-index";
import { conflictCopyName, isConflictCopy, mergeFact } from "../memory/merge-facts";
import type { MemoryFolder, NoteStore } from "../ports";
import type { SyncState } from "./sync-state";

export const INDEX_FILE = "MEMORY.md";

export interface MemoryOutcome {
	/** The project's facts after the sync, as the vault has them, and their texts by file name. */
	facts: FactInfo[];
	texts: Map<string, string>;
	written: string[];
	errors: string[];
	/** Things a person must look at: conflict copies. */
	notices: string[];
}

/** `<memory folder>/<project>`: the project's facts in the vault. */
export function memoryFolderOf(memoryFolder: string, project: string): string {
	return `${memoryFolder}/${project}`;
}

/** A fact file of the memory folder: not the index, not a conflict copy, not `_inbox` or hidden. */
export function isFactFile(name: string): boolean {
	return /\.md$/i.test(name) && name.toLowerCase() !== INDEX_FILE.toLowerCase() && !isConflictCopy(name) && !/^[_.]/.test(name);
}

/**
 * Brings one project's facts in step between the vault folder and Claude Code's memory folder
 * (when sharing is on: `claude` given), three-way against what both held after the last sync, then
 * regenerates the generated region of `MEMORY.md` on both sides. Any file that changed while this
 * ran is left for the next sync.
 */
export async function syncProjectMemory(notes: NoteStore, state: SyncState, folder: string, key: string, claude: MemoryFolder | undefined): Promise<MemoryOutcome> {
	const out: MemoryOutcome = { facts: [], texts: new Map(), written: [], errors: [], notices: [] };
	const vault = new Map<string, string>();
	for (const path of await notes.list(folder)) {
		const name = path.slice(folder.length + 1);
		if (!isFactFile(name)) continue;
		const text = await notes.read(path);
		if (text !== null) vault.set(name, text);
	}
	if (claude) await shareFacts(notes, state, folder, key, claude, vault, out);
	out.facts = [...vault].map(([name, text]) => readFact(name, text));
	out.texts = vault;

	const path = `${folder}/${INDEX_FILE}`;
	const before = await notes.read(path);
	if (out.facts.length > 0 || before !== null) {
		const updated = updateMemoryIndex(before, out.facts);
		if (!updated.ok) out.errors.push(`${path} has ${updated.reason}; its index was not updated`);
		else if (updated.changed) {
			if (await notes.write(path, updated.text, before)) out.written.push(path);
			else out.errors.push(`${path}: it changed while the sync ran; it is updated next time`);
		}
	}
	return out;
}

/** A fact known to both sides: its file name in each (the vault's follows its `name`, so `[[name]]` links work). */
interface Pair {
	vault: string;
	claude: string;
	base: string | null;
}

async function shareFacts(notes: NoteStore, state: SyncState, folder: string, key: string, claude: MemoryFolder, vault: Map<string, string>, out: MemoryOutcome): Promise<void> {
	const listed = await claude.list();
	const theirs = new Map([...listed].filter(([name]) => isFactFile(name)));
	const known = (state.memory[key] ??= {});
	const pairs = pairUp(known, vault, theirs);
	const claudeSide = new Map<string, string>();
	for (const pair of pairs) {
		const v = vault.get(pair.vault) ?? null;
		const c = theirs.get(pair.claude) ?? null;
		const merge = mergeFact(pair.base, v, c);
		const path = `${folder}/${pair.vault}`;
		let done = true;
		let claudeText = c;
		if (merge.action === "to-vault") {
			done = merge.text === null ? await notes.remove(path, v ?? "") : await notes.write(path, merge.text, v);
			if (done) {
				if (merge.text === null) vault.delete(pair.vault);
				else vault.set(pair.vault, merge.text);
				out.written.push(path);
			}
		} else if (merge.action === "to-claude") {
			done = merge.text === null ? await claude.remove(pair.claude, c ?? "") : await claude.write(pair.claude, merge.text, c);
			if (done) {
				claudeText = merge.text;
				out.written.push(`${claude.path}/${pair.claude}`);
			}
		} else if (merge.action === "conflict") {
			const copy = `${folder}/${conflictCopyName(pair.vault)}`;
			const existing = await notes.read(copy);
			done = (existing === merge.claudeText || (await notes.write(copy, merge.claudeText, existing))) && (await claude.write(pair.claude, merge.vaultText, c));
			if (done) {
				claudeText = merge.vaultText;
				out.written.push(copy, `${claude.path}/${pair.claude}`);
				out.notices.push(`${path} was changed in the vault and by Claude Code: the vault's version is kept, Claude Code's is in ${copy}`);
			}
		}
		if (claudeText !== null) claudeSide.set(pair.claude, claudeText);
		if (!done) {
			out.errors.push(`${path}: it changed while the sync ran; it is merged next time`);
			continue;
		}
		if (merge.base === null) delete known[pair.claude];
		else known[pair.claude] = { vault: pair.vault, base: merge.base };
	}

	const facts = [...claudeSide].map(([name, text]) => readFact(name, text));
	const before = listed.get(INDEX_FILE) ?? null;
	if (facts.length === 0 && before === null) return;
	const updated = updateMemoryIndex(before, facts);
	if (!updated.ok) out.errors.push(`${claude.path}/${INDEX_FILE} has ${updated.reason}; its index was not updated`);
	else if (updated.changed) {
		if (await claude.write(INDEX_FILE, updated.text, before)) out.written.push(`${claude.path}/${INDEX_FILE}`);
		else out.errors.push(`${claude.path}/${INDEX_FILE}: it changed while the sync ran; it is updated next time`);
	}
}

/**
 * Which vault file goes with which Claude Code file: as paired before; a new file in the vault
 * keeps its name on the other side; a new file of Claude Code's (`feedback_use_pnpm.md`) is named
 * after its `name` in the vault (`use-pnpm.md`), where `[[use-pnpm]]` then links to it.
 */
function pairUp(known: Record<string, { vault: string; base: string }>, vault: ReadonlyMap<string, string>, theirs: ReadonlyMap<string, string>): Pair[] {
	const pairs: Pair[] = Object.entries(known).map(([claude, k]) => ({ claude, vault: k.vault, base: k.base }));
	const vaultTaken = new Set(pairs.map((p) => p.vault.toLowerCase()));
	const claudeTaken = new Set(pairs.map((p) => p.claude.toLowerCase()));
	const free = (taken: Set<string>, name: string) => {
		let candidate = name;
		for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = name.replace(/\.md$/i, ` ${n}.md`);
		taken.add(candidate.toLowerCase());
		return candidate;
	};
	for (const name of [...vault.keys()].sort()) {
		if (vaultTaken.has(name.toLowerCase())) continue;
		vaultTaken.add(name.toLowerCase());
		pairs.push({ vault: name, claude: free(claudeTaken, name), base: null });
	}
	for (const [name, text] of [...theirs].sort(([a], [b]) => (a < b ? -1 : 1))) {
		if (claudeTaken.has(name.toLowerCase())) continue;
		claudeTaken.add(name.toLowerCase());
		const preferred = `${factSlug(readFact(name, text).name)}.md`;
		pairs.push({ vault: free(vaultTaken, vault.has(preferred) ? name : preferred), claude: name, base: null });
	}
	return pairs.sort((a, b) => (a.claude < b.claude ? -1 : a.claude > b.claude ? 1 : 0));
}
