import { dict } from "../dict";
import { factSlug, readFact, type FactInfo } from "../memory/fact-file";
import { withFlatProperties, withoutFlatProperties } from "../memory/fact-properties";
import { updateMemoryIndex } from "../memory/memory-index";
import { printable } from "../text/printable";
import { sameFileKey } from "../text/same-file-key";
import { generatedProperty } from "../notes/note-regions";
import { isDeviceName } from "../notes/note-name";
import { conflictCopyName, isConflictCopy, mergeFact } from "../memory/merge-facts";
import { inertFact, liveFact } from "../memory/inert-fact";
import { restoreSecrets } from "../memory/redacted-copy";
import type { SyncState } from "../sync/sync-state";
import type { PlannedWrite } from "./sync-plan";
import { withoutNameControls } from "../text/name-controls";
import { factsLeftBy, projectsThatLeftFacts } from "../projects/replaced-repository";
import { claudeNamesByStored, storedFactName } from "../memory/stored-fact-name";

const INDEX_FILE = "MEMORY.md";

/** One project's memory as it was read: the vault folder and, when shared, Claude Code's folder. */
export interface MemoryTexts {
	/** `<memory folder>/<project folder>` in the vault. */
	folder: string;
	/** Every `.md` file directly in the vault folder, by file name. */
	vault: ReadonlyMap<string, string>;
	/** Claude Code's memory folder (where it is, and its `.md` files by name) when sharing is on. */
	claude?: SharedFolder;
	/** The vault folder is not there at all (not merely empty). */
	vaultAbsent?: boolean;
}

/** Claude Code's memory folder as read: where, its `.md` files by name, whether it is not there at all, and where it leads once links are followed. */
export interface SharedFolder {
	path: string;
	files: ReadonlyMap<string, string>;
	absent?: boolean;
	real?: string;
}

export interface MemoryPlan {
	/** The project's facts after the sync, as the vault will have them, and their texts by file name, redacted (they go to the context and recall). */
	facts: FactInfo[];
	texts: Map<string, string>;
	writes: PlannedWrite[];
	errors: string[];
	/** Things a person must look at: conflict copies. */
	notices: string[];
}

/** A fact file of the memory folder: not the index, not a conflict copy, not `_inbox` or hidden. */
export function isFactFile(name: string): boolean {
	return /\.md$/i.test(name) && name.toLowerCase() !== INDEX_FILE.toLowerCase() && !isConflictCopy(name) && !/^[_.]/.test(name);
}

/**
 * A session note (its `session_id` property, then the generated region) the user moved into the
 * memory folder is not a fact: read as one, it was indexed in MEMORY.md and copied, conversation and
 * all, into Claude Code's memory folder, and again at every sync that updated it there.
 */
function isSessionNote(text: string): boolean {
	return generatedProperty(text, "session_id") !== undefined;
}

/**
 * Brings one project's facts in step between the vault folder and Claude Code's memory folder
 * (when sharing is on), three-way against what both held after the last sync (`state.memory[key]`,
 * updated in place as if every write lands), then regenerates the generated region of `MEMORY.md`
 * on both sides.
 * The merge runs on redacted texts (`redact`, the project's redaction), so the state keeps none of
 * a secret either side holds; each write gets back the secrets of the file it replaces.
 * @param key the project's identity, which the pairs are kept under.
 * @param projectPath the enabled project's folder, which its Claude Code writes go with.
 * @param leavers the projects that left facts behind (`projectsThatLeftFacts`), found once for all projects.
 */
export function planProjectMemory(texts: MemoryTexts, state: SyncState, key: string, projectPath: string, redact: (text: string) => string = (t) => t, redaction = "off", leavers: readonly string[] = projectsThatLeftFacts(state)): MemoryPlan {
	const out: MemoryPlan = { facts: [], texts: new Map(), writes: [], errors: [], notices: [] };
	const vault = new Map([...texts.vault].filter(([name, text]) => isFactFile(name) && !isSessionNote(text)));
	if (texts.claude) shareFacts(texts, state, key, projectPath, vault, out, redact, redaction, leavers);
	// The vault's copy shows `metadata.type` and `modified` flat too, for Obsidian's Properties view
	// (an edit there goes into `metadata`): facts that lack it, or whose two values differ, are rewritten.
	for (const [name, text] of vault) {
		const path = `${texts.folder}/${name}`;
		const shown = withFlatProperties(withoutFlatProperties(text));
		if (shown === text || out.writes.some((w) => w.kind === "note" && w.path === path)) continue;
		out.writes.push({ kind: "note", path, text: shown, expected: text, what: "memory" });
		vault.set(name, shown);
	}
	// By file name, however they arrived: the packet and hook context list them in this order.
	out.texts = new Map([...vault].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, text]) => [name, redact(text)]));
	// Its properties as YAML reads them: an escape (`"\x67hp_…"`) is a secret again once read, and a control character a character.
	out.facts = [...out.texts].map(([name, text]) => shownFact(readFact(name, text), redact));

	const path = `${texts.folder}/${INDEX_FILE}`;
	const before = texts.vault.get(INDEX_FILE) ?? null;
	if (out.facts.length > 0 || before !== null) {
		const updated = updateMemoryIndex(before, out.facts);
		if (!updated.ok) out.errors.push(`${path} has ${updated.reason}; its index was not updated`);
		else if (updated.changed) out.writes.push({ kind: "note", path, text: updated.text, expected: before, what: "memory" });
	}
	return out;
}

/** A fact's name and description as the packet, the hooks and the index show them: redacted as read, printable. */
function shownFact(fact: FactInfo, redact: (text: string) => string): FactInfo {
	return { ...fact, name: printable(redact(fact.name)), description: printable(redact(fact.description)) };
}

/** A fact known to both sides: its file name in each (the vault's follows its `name`, so `[[name]]` links work), and its key in the state when it has one. */
interface Pair {
	vault: string;
	claude: string;
	base: string | null;
	stored?: string;
}

function shareFacts(texts: MemoryTexts, state: SyncState, key: string, projectPath: string, vault: Map<string, string>, out: MemoryPlan, redact: (text: string) => string, redaction: string, leavers: readonly string[]): void {
	const claude = texts.claude!;
	const known = (state.memory[key] ??= dict());
	hideStoredNames(state, key, claude.path, redact, leavers);
	const byStored = claudeNamesByStored([...claude.files.keys()].filter(isFactFile));
	const rawOf = (stored: string) => byStored.get(stored) ?? stored;
	// Facts a repository that had this path left in Claude Code's folder (kept by path) are not this project's.
	const left = new Set([...factsLeftBy(state, key, claude.path, leavers)].map(rawOf));
	const pairedBefore = new Set(Object.keys(known).map(rawOf));
	const theirs = new Map([...claude.files].filter(([name]) => isFactFile(name) && (!left.has(name) || pairedBefore.has(name))));
	const record = state.projects[key];
	// What both sides held after the last sync holds only for the same two folders. A side that is
	// gone (the memory folder setting changed, a folder moved) or another Claude Code folder (the
	// hook's sync with the ended session's `CLAUDE_CONFIG_DIR`) is met as for the first time: every
	// fact goes where it is missing, none is deleted (read against the old base, all of them were).
	// So is the same path led by a link to another folder (another project's memory): read against
	// the old base, every fact of the vault looked deleted by Claude Code and went (attack round 51a).
	const relinked = record?.memoryReal !== undefined && claude.real !== undefined && record.memoryReal !== claude.real && record.memoryWith === claude.path;
	const other = (record?.memoryWith !== undefined && record.memoryWith !== claude.path) || relinked;
	// The pairs of file names stay: a fact is still the same fact on both sides, only no text is taken for their common one.
	const fresh = Object.keys(known).length > 0 && (texts.vaultAbsent === true || claude.absent === true || other);
	if (fresh) {
		const why = texts.vaultAbsent ? `the vault's memory folder ${texts.folder} is not there (moved, or the memory folder setting changed)` : claude.absent ? `Claude Code's memory folder ${claude.path} is not there` : relinked ? `Claude Code's memory folder ${claude.path} leads to ${claude.real ?? ""} this time, not ${record?.memoryReal ?? ""} as last time` : `Claude Code's memory folder is ${claude.path} this time, not ${record?.memoryWith ?? ""} as last time`;
		out.notices.push(`${why}: its facts were shared as for the first time, each copied where it was missing, none deleted`);
	}
	// Under a redaction other than the last one (turned on again, a pattern added, new rules), the
	// vault's copies may hold secrets of Claude Code's that it did not know then.
	const stricter = record !== undefined && record.memoryRedaction !== redaction && redaction !== "off";
	if (record) state.projects[key] = { ...record, memoryWith: claude.path, ...(claude.real === undefined ? {} : { memoryReal: claude.real }), memoryRedaction: redaction };
	const claudeSide = new Map<string, string>();
	// Compared and merged as the vault shows them: redacted, and inert (a fact the model wrote runs nothing in Obsidian).
	const shown = (text: string) => inertFact(redact(text));
	const redacted = (text: string | null) => (text === null ? null : shown(text));
	// Two files with the same text as the vault shows it are one fact, however each side named it.
	const sameText = (text: string) => shown(withoutFlatProperties(text));
	for (const paired of pairUp(known, byStored, vault, theirs, redact, sameText)) {
		const pair = fresh ? { ...paired, base: null } : paired;
		// The merge runs on Claude Code's form: the vault's flat copies of `metadata` keys are not a change.
		const shownV = vault.get(pair.vault) ?? null;
		const rawV = shownV === null ? null : withoutFlatProperties(shownV);
		const rawC = theirs.get(pair.claude) ?? null;
		const v = redacted(rawV);
		const c = redacted(rawC === null ? null : withoutFlatProperties(rawC));
		// A base stored by an older release may hold a secret: compared redacted, kept redacted.
		const merge = mergeFact(redacted(pair.base), v, c);
		// The vault gets its own secrets back, never Claude Code's; Claude Code gets back both sides'
		// own. Under a stricter redaction, a secret line Claude Code's copy holds too is taken for
		// Claude Code's (copied while redaction was off, or before a pattern knew it).
		const copied = rawV === null || rawC === null || !stricter ? new Set<string>() : sharedSecretLines(rawV, rawC, redact);
		const ownV = rawV === null || copied.size === 0 ? rawV : rawV.split("\n").filter((line) => !copied.has(line)).join("\n");
		const toVault = (text: string) => withFlatProperties(inertFact(restoreSecrets(text, [ownV], shown)));
		const toVaultText = (text: string | null) => (text === null ? null : toVault(text));
		const toClaudeText = (text: string | null) => (text === null ? null : liveFact(restoreSecrets(text, [rawC, rawV], shown)));
		const path = `${texts.folder}/${pair.vault}`;
		const previous = pair.stored === undefined ? undefined : known[pair.stored];
		const stored = storedFactName(pair.claude, redact);
		const onConflict = { kind: "memory-pair" as const, project: key, claude: stored, ...(previous ? { previous } : {}) };
		// Reported by a name without the secret Claude Code's may hold.
		const shownName = redact(pair.claude);
		const toClaude = (text: string | null, expected: string | null): PlannedWrite => ({ kind: "claude-memory", projectPath, folder: claude.path, name: pair.claude, ...(shownName === pair.claude ? {} : { shown: shownName }), text, expected, onConflict });
		// The vault's copy holds a secret of Claude Code's that today's redaction knows (a copy made
		// while redaction was off, or before a pattern): it is redacted, as "Rebuild all notes" does for notes.
		const redactVaultCopy = (redactedV: string) => {
			const text = toVault(redactedV);
			out.writes.push({ kind: "note", path, text, expected: shownV, what: "memory", onConflict });
			vault.set(pair.vault, text);
		};
		let claudeText = rawC;
		let vaultWritten = false;
		if (merge.action === "to-vault") {
			const text = toVaultText(merge.text);
			out.writes.push({ kind: "note", path, text, expected: shownV, what: "memory", onConflict });
			if (text === null) vault.delete(pair.vault);
			else vault.set(pair.vault, text);
			vaultWritten = true;
		} else if (merge.action === "to-claude") {
			claudeText = toClaudeText(merge.text);
			out.writes.push(toClaude(claudeText, rawC));
			if (copied.size > 0 && v !== null) {
				redactVaultCopy(v);
				vaultWritten = true;
			}
		} else if (merge.action === "conflict") {
			const copyText = withFlatProperties(merge.claudeText);
			// A copy there already is the user's to read (or edited by them): the next one goes beside it.
			let n = 1;
			while (texts.vault.has(conflictCopyName(pair.vault, n)) && texts.vault.get(conflictCopyName(pair.vault, n)) !== copyText) n++;
			const copyName = conflictCopyName(pair.vault, n);
			const copy = `${texts.folder}/${copyName}`;
			if (!texts.vault.has(copyName)) out.writes.push({ kind: "note", path: copy, text: copyText, expected: null, what: "memory", onConflict });
			claudeText = toClaudeText(merge.vaultText);
			out.writes.push(toClaude(claudeText, rawC));
			out.notices.push(`${path} was changed in the vault and by Claude Code: the vault's version is kept, Claude Code's is in ${copy}`);
		} else if (copied.size > 0 && v !== null) {
			redactVaultCopy(v);
			vaultWritten = true;
		}
		// In the same sync as its edit went to Claude Code (attack round 48b: only the next one did, so
		// every edit with a `<%` was written twice, the second sync changing the vault's file alone).
		if (!vaultWritten && shownV !== null && inertFact(shownV) !== shownV) {
			// A copy an older release made (or an edit since): what would run in it is made inert; Claude Code's stays.
			// Its flat properties put in their place in the same write (the step below skips a fact written here).
			const text = withFlatProperties(withoutFlatProperties(inertFact(shownV)));
			out.writes.push({ kind: "note", path, text, expected: shownV, what: "memory", onConflict });
			vault.set(pair.vault, text);
		}
		if (claudeText !== null) claudeSide.set(pair.claude, claudeText);
		if (pair.stored !== undefined) delete known[pair.stored];
		if (merge.base !== null) known[stored] = { vault: pair.vault, base: merge.base };
	}

	const facts = [...claudeSide].map(([name, text]) => readFact(name, text));
	const before = claude.files.get(INDEX_FILE) ?? null;
	if (facts.length === 0 && before === null) return;
	const updated = updateMemoryIndex(before, facts);
	if (!updated.ok) out.errors.push(`${claude.path}/${INDEX_FILE} has ${updated.reason}; its index was not updated`);
	else if (updated.changed) out.writes.push({ kind: "claude-memory", projectPath, folder: claude.path, name: INDEX_FILE, text: updated.text, expected: before });
}

/**
 * The names of Claude Code's files the state keeps, as {@link storedFactName} keeps them: a name an
 * older release kept, or one today's redaction catches since, is hashed. Its pair stays.
 */
function hideStoredNames(state: SyncState, key: string, folder: string, redact: (text: string) => string, leavers: readonly string[]): void {
	const known = state.memory[key]!;
	for (const name of Object.keys(known)) {
		const stored = storedFactName(name, redact);
		if (stored === name || stored in known) continue;
		known[stored] = known[name]!;
		delete known[name];
	}
	// What a replaced repository left in this folder is kept by name too.
	for (const other of leavers) {
		const record = state.projects[other];
		const left = record?.leftFacts;
		if (!record || left?.folder !== folder || !Array.isArray(left.names)) continue;
		const names = left.names.map((name) => (typeof name === "string" ? storedFactName(name, redact) : name));
		if (names.some((name, i) => name !== left.names[i])) state.projects[other] = { ...record, leftFacts: { ...left, names } };
	}
}

/** The lines of `text` that `other` holds too and redaction changes: the other side's secrets. */
function sharedSecretLines(text: string, other: string, redact: (text: string) => string): Set<string> {
	const theirs = new Set(other.split("\n"));
	return new Set(text.split("\n").filter((line) => theirs.has(line) && redact(line) !== line));
}

/**
 * Which vault file goes with which Claude Code file: as paired before; a new file in the vault
 * keeps its name on the other side; a new file of Claude Code's (`feedback_use_pnpm.md`) is named
 * after its `name` in the vault (`use-pnpm.md`), where `[[use-pnpm]]` then links to it. That name
 * is made from the redacted `name` (and a Claude Code file name kept only when redaction leaves it
 * alone): a vault file's name is shown, linked and synced as its text is (`deploy password=…`
 * named the vault's file `deploy-password-<the password>.md`). A new file on each side whose text
 * (`textKey`) is the same is one fact met again, paired: with the state lost or moved away, as a
 * sync says to do with a damaged one, every fact was copied back to the other side as a second one.
 */
function pairUp(known: Record<string, { vault: string; base: string }>, byStored: ReadonlyMap<string, string>, vault: ReadonlyMap<string, string>, theirs: ReadonlyMap<string, string>, redact: (text: string) => string, textKey: (text: string) => string): Pair[] {
	const pairs: Pair[] = Object.entries(known).map(([stored, k]) => ({ stored, claude: byStored.get(stored) ?? stored, vault: k.vault, base: k.base }));
	// A name kept hashed whose file Claude Code deleted: written again (the vault's copy changed since), it is named after the vault's.
	const unnamed = new Set(pairs.filter((p) => !byStored.has(p.stored!) && p.stored!.startsWith("#")));
	const vaultTaken = new Set(pairs.map((p) => sameFileKey(p.vault)));
	// Claude Code's names taken, theirs included: a new name from the vault meets none of them.
	const claudeTaken = new Set([...pairs.filter((p) => !unnamed.has(p)).map((p) => sameFileKey(p.claude)), ...[...theirs.keys()].map(sameFileKey)]);
	// Each name's next number goes on where it stopped: thousands of facts of one name looked from ` 2` again each time.
	const tried = new Map<string, number>();
	const free = (taken: Set<string>, name: string) => {
		const key = `${taken === vaultTaken ? "v" : "c"}${sameFileKey(name)}`;
		let candidate = name;
		for (let n = tried.get(key) ?? 2; taken.has(sameFileKey(candidate)); n++) {
			candidate = name.replace(/\.md$/i, ` ${n}.md`);
			tried.set(key, n + 1);
		}
		taken.add(sameFileKey(candidate));
		return candidate;
	};
	for (const p of unnamed) p.claude = free(claudeTaken, withoutNameControls(p.vault));
	// Claude Code's folder may hold names that differ only in case (`Style.md` beside `style.md`, on
	// Linux): each is a fact of its own, paired by its exact name, and a new name never takes one of
	// theirs without case or normalization (on macOS and Windows it would be the same file).
	const claudeExact = new Set(pairs.map((p) => p.claude));
	// The vault's may too (`Tone.md` beside `tone.md`, café in NFC beside NFD): each is a fact of its own, with a name of its own in Claude Code's folder (the second was not shared).
	const vaultExact = new Set(pairs.map((p) => p.vault));
	// A name both sides have pairs by that name, below. Each text's names last first, taken from the end.
	const newInVault = new Map<string, string[]>();
	for (const [name, text] of [...vault].sort(([a], [b]) => (a < b ? 1 : -1))) {
		if (vaultExact.has(name) || theirs.has(withoutNameControls(name))) continue;
		const key = textKey(text);
		const alike = newInVault.get(key);
		if (alike) alike.push(name);
		else newInVault.set(key, [name]);
	}
	for (const [name, text] of [...theirs].sort(([a], [b]) => (a < b ? -1 : 1))) {
		if (claudeExact.has(name) || vault.has(name)) continue;
		const same = newInVault.get(textKey(text))?.pop();
		if (same === undefined) continue;
		claudeExact.add(name);
		vaultExact.add(same);
		vaultTaken.add(sameFileKey(same));
		pairs.push({ vault: same, claude: name, base: null });
	}
	for (const name of [...vault.keys()].sort()) {
		if (vaultExact.has(name)) continue;
		vaultExact.add(name);
		vaultTaken.add(sameFileKey(name));
		// A vault name with a line break (made on Linux, or by a sync tool) goes without it: Claude Code's folder refuses such a name, and so no fact of the project was shared again.
		const shareable = withoutNameControls(name);
		const claude = theirs.has(shareable) && !claudeExact.has(shareable) ? shareable : free(claudeTaken, shareable);
		claudeTaken.add(sameFileKey(claude));
		claudeExact.add(claude);
		pairs.push({ vault: name, claude, base: null });
	}
	for (const [name, text] of [...theirs].sort(([a], [b]) => (a < b ? -1 : 1))) {
		if (claudeExact.has(name)) continue;
		claudeExact.add(name);
		claudeTaken.add(sameFileKey(name));
		const preferred = vaultNameOf(redact(readFact(name, text).name));
		pairs.push({ vault: free(vaultTaken, vault.has(preferred) && redact(name) === name ? name : preferred), claude: name, base: null });
	}
	return pairs.sort((a, b) => (a.claude < b.claude ? -1 : a.claude > b.claude ? 1 : 0));
}

/**
 * The vault file for a new Claude Code fact: its `name` as a slug, `[[name]]` linking to it. A slug
 * that would not be read back as a fact (`memory` is the index to {@link isFactFile}: its pair
 * would look deleted at the next sync, and Claude Code's file be deleted with it) or that Windows
 * cannot make (`con`) gets `-fact` after it.
 */
export function vaultNameOf(factName: string): string {
	const slug = factSlug(factName);
	const name = `${slug}.md`;
	return isFactFile(name) && !isDeviceName(name) ? name : `${slug}-fact.md`;
}
