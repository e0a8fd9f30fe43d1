import { readFact } from "../memory/fact-file";
import { claudeNamesByStored } from "../memory/stored-fact-name";
import { slugOf } from "../memory/propose-facts";
import type { SyncState } from "../sync/sync-state";
import { sameFileKey } from "../text/same-file-key";
import { isFactFile, vaultNameOf } from "./plan-memory";
import { INBOX } from "./plan-proposals";
import type { PlannedWrite } from "./sync-plan";

/**
 * Fact proposals and facts' vault files are named from their text once, under the redaction of
 * then: a proposal made while redaction was off, or before a pattern knew its secret, is named
 * `always-use-<the token>-for-billing.md`, and a Claude Code fact's copy `db-password-<it>.md`.
 * Under today's redaction they are named again from their redacted text, their text is redacted,
 * and the state's names and statements with them. A name a person chose is theirs and stays.
 */

/** One project's memory folder as read, with the redaction in force for the project. */
export interface RedactableFolder {
	key: string;
	/** `<memory folder>/<project folder>` in the vault. */
	folder: string;
	facts: ReadonlyMap<string, string>;
	inbox: ReadonlyMap<string, string>;
	/** Claude Code's memory files by name, when the project shares its facts. */
	claude?: ReadonlyMap<string, string>;
	redact: (text: string) => string;
}

/** A file to move to the name its redacted text gives: `claude` names the fact's pair, none a proposal. */
export interface RedactedRename {
	project: string;
	from: string;
	to: string;
	claude?: string;
}

/** The proposals and facts' vault files whose generated name holds what today's redaction catches. */
export function redactedRenames(state: SyncState, folders: readonly RedactableFolder[]): RedactedRename[] {
	const out: RedactedRename[] = [];
	for (const f of folders) {
		const taken = new Set([...f.facts.keys(), ...f.inbox.keys()].map(sameFileKey));
		const free = (name: string, next: (n: number) => string) => {
			let candidate = name;
			for (let n = 2; taken.has(sameFileKey(candidate)); n++) candidate = next(n);
			taken.add(sameFileKey(candidate));
			return candidate;
		};
		for (const [file, text] of f.inbox) {
			// Most files: the rules find nothing (redaction off, no secret), and nothing is parsed.
			if (!isFactFile(file) || f.redact(text) === text) continue;
			const stem = file.replace(/\.md$/i, "");
			const description = readFact(file, text).description;
			if (!renameDue(stem, description, f.redact)) continue;
			const slug = slugOf(f.redact(description));
			// As `planProposals` names a second proposal of one name.
			const to = free(`${slug}.md`, (n) => `${slug}-${n}.md`);
			out.push({ project: f.key, from: `${f.folder}/${INBOX}/${file}`, to: `${f.folder}/${INBOX}/${to}` });
		}
		if (!f.claude) continue;
		const byStored = claudeNamesByStored(f.claude.keys());
		for (const [claude, pair] of Object.entries(state.memory[f.key] ?? {})) {
			const file = byStored.get(claude);
			const text = file === undefined ? undefined : f.claude.get(file);
			if (file === undefined || text === undefined || !f.facts.has(pair.vault) || f.redact(text) === text) continue;
			const name = readFact(file, text).name;
			const given = vaultNameOf(name);
			const wanted = vaultNameOf(f.redact(name));
			// As `pairUp` named it, a second one of that name with ` 2` after it.
			if (wanted === given || pair.vault.replace(/ \d+\.md$/i, ".md") !== given) continue;
			const to = free(wanted, (n) => wanted.replace(/\.md$/i, ` ${n}.md`));
			out.push({ project: f.key, from: `${f.folder}/${pair.vault}`, to: `${f.folder}/${to}`, claude });
		}
	}
	return out;
}

/**
 * The state after the renames made: proposals' names in their sessions' records (their notes link
 * to them), facts' pairs. Returns the sessions whose notes link to a renamed proposal.
 */
export function followRedactedRenames(state: SyncState, made: readonly RedactedRename[]): string[] {
	const relinked: string[] = [];
	const stem = (path: string) => (path.split("/").pop() ?? path).replace(/\.md$/i, "");
	for (const rename of made) {
		if (rename.claude !== undefined) {
			const pair = state.memory[rename.project]?.[rename.claude];
			if (pair) state.memory[rename.project]![rename.claude] = { ...pair, vault: rename.to.split("/").pop()! };
			continue;
		}
		const from = stem(rename.from);
		for (const [path, record] of Object.entries(state.sessions)) {
			if ((record.projectKey ?? record.project) !== rename.project || !record.facts?.includes(from)) continue;
			state.sessions[path] = { ...record, facts: record.facts.map((f) => (f === from ? stem(rename.to) : f)) };
			relinked.push(path);
		}
	}
	return relinked;
}

/**
 * Each proposal's text redacted with today's rules (what a person added too: a secret the rules
 * catch is redacted wherever it is), its `name` following its file's. The statements the state
 * keeps (`proposed`) are hashes (`storedKey`): nothing to redact there.
 */
export function reredactInbox(folders: readonly RedactableFolder[]): PlannedWrite[] {
	const writes: PlannedWrite[] = [];
	for (const f of folders) {
		for (const [file, text] of f.inbox) {
			if (!isFactFile(file) || f.redact(text) === text) continue;
			const stem = file.replace(/\.md$/i, "");
			const fact = readFact(file, text);
			// A rename not made (its move refused): redacted with it, by a later sync, or its name would be lost.
			if (renameDue(stem, fact.description, f.redact)) continue;
			let next = f.redact(text);
			// Renamed: the `name` it was generated with follows, a name a person gave stays.
			if (fact.name !== stem && namedAfter(fact.name, fact.description)) next = withName(next, stem);
			if (next !== text) writes.push({ kind: "note", path: `${f.folder}/${INBOX}/${file}`, text: next, expected: text, what: "memory" });
		}
	}
	return writes;
}

/** Whether a proposal's file is named after what today's rules catch in its statement. */
function renameDue(stem: string, description: string, redact: (text: string) => string): boolean {
	return namedAfter(stem, description) && slugOf(redact(description)) !== slugOf(description);
}

/** Whether `name` is the one made from `description` (a second of that name with `-2` after it), not one a person gave. */
function namedAfter(name: string, description: string): boolean {
	const made = slugOf(description);
	// A second one's name: `-2` after the slug, cut short to leave it room.
	const bare = name.replace(/-\d+$/, "");
	return name === made || (bare !== name && bare !== "" && made.startsWith(bare));
}

/** The text with its frontmatter's `name` set (a slug: no YAML quoting needed). */
function withName(text: string, name: string): string {
	const end = text.startsWith("---\n") ? text.indexOf("\n---", 3) : -1;
	if (end < 0) return text;
	const head = text.slice(0, end).replace(/^name:.*$/m, `name: ${name}`);
	return head + text.slice(end);
}
