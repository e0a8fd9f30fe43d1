import { mayBlockOnFiles } from "./blocking-files";
import { isAbsentFolder, isDirectory, whatIsAt } from "./absent-folder";
import { existsSync, lstatSync, readdirSync, statSync, type Stats } from "node:fs";
import { lstat, readdir, realpath, rename, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { isStaleTemp, replaceKeepingAppends, writeFileReplacingSync } from "./atomic-write";
import { confinedFile, confinedFolder, readPlainBytes, readPlainFile, utf8Text } from "./confined-path";
import { rewriteLinks } from "../core/notes/link-rewrite";
import type { NoteStore } from "../core/ports";
import { makeFolder } from "./make-folder";

/**
 * The vault as a plain folder, for the CLI when Obsidian is closed. Writes are atomic (temp file
 * and rename), so Obsidian or a sync client never sees half a note. Paths may not leave the vault.
 */
export class VaultFolder implements NoteStore {
	private readonly root: string;
	/** Names in each folder read so far, so a first sync does not try to open a thousand missing notes. */
	private readonly listings = new Map<string, Promise<Set<string>>>();
	/** Folders whose real path was checked to be inside the vault (see `confine`). */
	private readonly confinedFolders = new Map<string, Promise<void>>();
	/** The vault's real path, as `list` found it first. */
	private realRoot: Promise<string> | undefined;

	/** @param options.removeLeftovers whether listing a folder removes what killed runs left there (off for a dry run, which writes nothing). */
	constructor(
		root: string,
		private readonly options: { removeLeftovers?: boolean } = {},
	) {
		this.root = resolve(root);
	}

	async read(path: string): Promise<string | null> {
		const target = this.resolve(path);
		// Not listed: looked for on disk all the same (another program may have made it since), with one stat.
		if (!(await this.listing(dirname(target))).has(basename(target)) && !existsSync(target)) return null;
		try {
			// Not UTF-8 (a note saved as Latin-1): refused, not decoded with U+FFFD and written back so.
			const real = (await this.confine(target, path)) ?? target;
			return utf8Text(real, await readPlainBytes(real));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	async write(path: string, text: string, expected: string | null): Promise<boolean> {
		const target = this.resolve(path);
		await this.confine(target, path);
		// A note the user made read-only stays as it is: a rename would replace it (and make it writable).
		// A rewrite keeps the note's mode: the run's umask gave it another (0640 became 0600 under umask 077, 0666 under 000).
		const mode = statSync(target, { throwIfNoEntry: false })?.mode;
		if (expected !== null && ((mode ?? 0o200) & 0o222) === 0) throw new Error(`${path} is read-only; it is left as it is (make it writable for the sync to update it)`);
		// Compared just before the rename (an edit saved since our read is not overwritten), and what
		// is appended to the note meanwhile is carried into the new one (see `replaceKeepingAppends`).
		// Blocking write: the CLI has nothing else to do meanwhile, and it costs half the CPU of async writes.
		const written = await replaceKeepingAppends(target, expected, (bytes) => utf8Text(target, bytes), (unchanged) => writeFileReplacingSync(target, text, mode === undefined ? undefined : mode & 0o7777, unchanged), text);
		if (written) (await this.listing(dirname(target))).add(basename(target));
		return written;
	}

	async create(path: string, parts: readonly (string | Uint8Array)[]): Promise<boolean> {
		const target = this.resolve(path);
		await this.confine(target, path);
		// As `write` with nothing expected: a file there since the plan was made is someone's, and stays.
		const bytes = parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : p));
		const written = await replaceKeepingAppends(target, null, (b) => utf8Text(target, b), (unchanged) => writeFileReplacingSync(target, bytes, undefined, unchanged));
		if (written) (await this.listing(dirname(target))).add(basename(target));
		return written;
	}

	/** Throws when the folder leads out of the vault or cannot be listed: an unlisted fact would look deleted. */
	async list(folder: string): Promise<string[]> {
		const target = this.resolve(folder);
		// The CLI tells no folder there by one blocking lstat, not a failed listing (a thousand enabled projects with no facts).
		// Blocking where the run may block on files, as the check before it (a thread-pool round trip a folder).
		const listed = () => (mayBlockOnFiles() ? Promise.resolve().then(() => readdirSync(target, { withFileTypes: true })) : readdir(target, { withFileTypes: true }));
		const entries = mayBlockOnFiles() && (await isAbsentFolder(target)) ? undefined : await listed().catch(async (error: NodeJS.ErrnoException) => {
			// No folder there yet is an empty one; a file, a FIFO or a dangling link there is not (see `isAbsentFolder`).
			if ((error.code === "ENOENT" || error.code === "ENOTDIR") && (await isAbsentFolder(target))) return undefined;
			// Checked before the message: a link out of the vault is said to be one.
			await confinedFolder(this.root, target, `The folder ${folder}`);
			if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new Error(`The folder ${folder} is ${await whatIsAt(target)}; make it a folder again`);
			throw new Error(`The folder ${folder} cannot be listed (${error.code ?? error.message})`);
		});
		if (entries === undefined) {
			this.listings.set(target, Promise.resolve(new Set()));
			return [];
		}
		// Checked once listed, before a name of it is given: nothing there has nothing to leave the vault by
		// (a thousand enabled projects with no facts yet were a walk of real paths each, every sync).
		// The vault's own real path walked once for every folder listed (a sync lists each notes folder).
		if (this.realRoot === undefined) {
			this.realRoot = realpath(this.root);
			// Awaited only where a folder is there to check: a vault not there is said elsewhere, not as an unhandled rejection.
			this.realRoot.catch(() => undefined);
		}
		await confinedFolder(this.root, target, `The folder ${folder}`, this.realRoot);
		// This listing stands for `listing`'s: what a killed sync left goes here as it would there.
		const names = await this.withoutLeftovers(target, entries.map((e) => e.name));
		this.listings.set(target, Promise.resolve(names));
		// Links and FIFOs too: reading them is refused, said, not taken for no file.
		return entries
			.filter((e) => !e.isDirectory() && names.has(e.name))
			.map((e) => `${folder}/${e.name}`)
			.sort();
	}

	async isFolder(folder: string): Promise<boolean> {
		return isDirectory(this.resolve(folder));
	}

	/** Moved to the vault's `.trash` folder, as Obsidian does when set to use it: a deleted note can come back. */
	async remove(path: string, expected: string): Promise<boolean> {
		const target = this.resolve(path);
		await this.confine(target, path);
		if ((await readPlainFile(target).catch(() => null)) !== expected) return false;
		// A `.trash` that is a link out of the vault (a dotfiles setup) would carry the note out with it.
		const trash = join(this.root, ".trash");
		const what = "The vault's trash folder .trash";
		await confinedFolder(this.root, trash, what);
		await makeFolder(trash);
		await confinedFolder(this.root, trash, what);
		const stem = basename(target).replace(/\.md$/i, "");
		let n = 0;
		for (;;) {
			const name = `${stem}${n === 0 ? "" : ` ${n}`}.md`;
			const taken = await lstat(join(trash, name)).then(() => true, () => false);
			if (!taken) {
				await rename(target, join(trash, name));
				break;
			}
			n++;
		}
		(await this.listing(dirname(target))).delete(basename(target));
		return true;
	}

	/** Renames each note, then rewrites the vault's links that named an old path, in one pass. */
	async move(moves: readonly { from: string; to: string }[]): Promise<{ from: string; to: string }[]> {
		const made: { from: string; to: string }[] = [];
		// Moves made by a sync killed before it rewrote the links (the note is at its new place, none
		// at its old one): their links are rewritten now, or a link in the user's note stays broken.
		const madeBefore: { from: string; to: string }[] = [];
		for (const move of moves) {
			let from: string;
			let to: string;
			try {
				from = this.resolve(move.from);
				to = this.resolve(move.to);
				// Nor through a folder that is a link out of it.
				await this.confine(from, move.from);
				await this.confine(to, move.to);
			} catch {
				// Out of the vault: not made, and the others still are.
				continue;
			}
			const source = await lstat(from).catch(() => undefined);
			const there = await lstat(to).then((s) => s.isFile(), () => false);
			if (source === undefined && there) madeBefore.push(move);
			if (!source?.isFile() || there) continue;
			await makeFolder(dirname(to));
			await rename(from, to);
			(await this.listing(dirname(from))).delete(basename(from));
			(await this.listing(dirname(to))).add(basename(to));
			made.push(move);
		}
		if (made.length === 0 && madeBefore.length === 0) return made;
		const links = new Map([...madeBefore, ...made].map((m) => [m.from, m.to]));
		const notes = await this.listTree("");
		const names = renamedNames(links, notes);
		for (const path of notes) {
			const text = await this.read(path);
			if (text === null) continue;
			const rewritten = rewriteLinks(text, links, names);
			if (rewritten !== text) await this.write(path, rewritten, text);
		}
		return made;
	}

	/**
	 * Every Markdown note below `folder`, hidden folders (`.obsidian`, `.trash`) and links to elsewhere
	 * left out, and so is a folder below that is a vault of its own (it holds `.obsidian`): its notes
	 * are its own sync's, with the same `session_id`s when both read one Claude Code folder, and were
	 * taken for this vault's moved notes (its project folder deleted to start over, this vault's sync
	 * wrote into the other's notes from then on).
	 */
	async listTree(folder: string): Promise<string[]> {
		const found: string[] = [];
		const walk = async (dir: string): Promise<void> => {
			const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
			if (dir !== this.root && entries.some((e) => e.name === ".obsidian" && e.isDirectory())) return;
			for (const e of entries) {
				if (e.name.startsWith(".")) continue;
				const full = join(dir, e.name);
				if (e.isDirectory()) await walk(full);
				else if (e.isFile() && /\.md$/i.test(e.name)) found.push(relative(this.root, full).split(sep).join("/"));
			}
		};
		await walk(folder === "" ? this.root : this.resolve(folder));
		return found.sort();
	}

	/** A folder's names but what a killed sync left half-written there, which goes now (it is no note either way; a dry run removes nothing). */
	private async withoutLeftovers(folder: string, names: readonly string[]): Promise<Set<string>> {
		const stale = new Set(names.filter((name) => isStaleTemp(name)));
		if (this.options.removeLeftovers !== false) for (const name of stale) await rm(join(folder, name), { force: true }).catch(() => undefined);
		return new Set(names.filter((name) => !stale.has(name)));
	}

	private listing(folder: string): Promise<Set<string>> {
		let names = this.listings.get(folder);
		if (!names) {
			names = readdir(folder).then(
				(entries) => this.withoutLeftovers(folder, entries),
				() => new Set<string>(),
			);
			this.listings.set(folder, names);
		}
		return names;
	}

	/**
	 * The note's real path once links are followed, refused when it leads out of the vault or is no
	 * plain file (a FIFO would hang the read). Checked for each folder once, for each note by one lstat.
	 */
	private async confine(target: string, path: string): Promise<string | undefined> {
		const folder = dirname(target);
		let checked = this.confinedFolders.get(folder);
		// Named by the folder: the check is made once for all the notes in it.
		if (!checked) this.confinedFolders.set(folder, (checked = confinedFolder(this.root, folder, `The folder ${dirname(path)}`)));
		await checked;
		// One blocking lstat: a thread-pool round trip and an error for each new note cost more (measured).
		const link = lstatQuietly(target);
		if (link === undefined || link.isFile()) return undefined;
		return confinedFile(this.root, target, `The note ${path}`);
	}

	private resolve(path: string): string {
		const target = resolve(join(this.root, ...path.split("/")));
		if (target !== this.root && !target.startsWith(this.root + sep)) throw new Error(`refusing to write outside the vault: ${path}`);
		return target;
	}
}

/** The entry's own stats, or undefined when there is none or it cannot be looked at. */
function lstatQuietly(path: string): Stats | undefined {
	try {
		return lstatSync(path, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}

/**
 * The old name and the new of each note a move renamed, for links by name (`[[name]]`), where no
 * note of the vault has the old name any more: with one, such a link names it (Obsidian finds a
 * note by its name alone). A note retitled because its title held a password the user scrubbed
 * kept it in every `[[…]]` link to it, which pointed nowhere.
 */
function renamedNames(moves: ReadonlyMap<string, string>, notes: readonly string[]): Map<string, string> {
	const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
	const left = new Set(notes.map((path) => nameOf(path).toLowerCase()));
	const names = new Map<string, string>();
	const twice = new Set<string>();
	for (const [from, to] of moves) {
		const [was, is] = [nameOf(from), nameOf(to)];
		if (was === is || left.has(was.toLowerCase())) continue;
		// Two notes of that name, both renamed: which one a link meant is not known.
		if (names.has(was) && names.get(was) !== is) twice.add(was);
		names.set(was, is);
	}
	for (const was of twice) names.delete(was);
	return names;
}
