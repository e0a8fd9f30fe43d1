import { globMatches } from "../core/text/glob-match";
import { readdirSync, realpathSync, type Dirent } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Settings } from "../core/settings";

/**
 * Excluded projects as this machine finds them. `~` is the home folder; and a path through a link
 * is excluded at the folder it leads to as well: Claude Code records the real folder (with `~/code`
 * a link to `/data/code`, a session in `~/code/secret` has `/data/code/secret` as its folder, and an
 * exclusion written the first way let all of it be stored). Each pattern is kept as written too.
 */
export function exclusionsHere(patterns: readonly string[], home: string = homedir()): string[] {
	const out = new Set<string>();
	for (const raw of patterns) {
		out.add(raw);
		const pattern = /^~(?=$|[\\/])/.test(raw) ? `${home}${raw.slice(1)}` : raw;
		out.add(pattern);
		// The folders before the first glob character, resolved: `~/code/*/secret` through a linked `~/code`.
		const glob = pattern.search(/[*?]/);
		const cut = glob < 0 ? pattern.length : Math.max(pattern.lastIndexOf("/", glob), pattern.lastIndexOf("\\", glob));
		if (cut <= 0) continue;
		const real = realPrefix(pattern.slice(0, cut));
		if (real !== undefined) out.add(`${real}${pattern.slice(cut)}`);
		if (glob >= 0) for (const linked of linksMatching(pattern.slice(0, cut), pattern.slice(cut + 1))) out.add(linked);
	}
	return [...out];
}

/**
 * For a glob's first starred folder name (`shop-*` of `~/work/shop-*`), the links in its folder
 * that match it, as the real folders they lead to with the rest of the pattern after them: one
 * folder read, no more (a `**` is matched as written).
 */
function linksMatching(folder: string, rest: string): string[] {
	const slash = rest.search(/[\\/]/);
	const name = slash < 0 ? rest : rest.slice(0, slash);
	const after = slash < 0 ? "" : rest.slice(slash);
	if (name.includes("**")) return [];
	// Not a RegExp: many stars against a long name backtracked (see `globMatches`).
	const matches = (entryName: string) => globMatches(name.toLowerCase(), entryName.toLowerCase());
	let entries: Dirent[];
	try {
		entries = readdirSync(folder, { withFileTypes: true });
	} catch {
		return [];
	}
	return entries.flatMap((entry) => {
		if (!entry.isSymbolicLink() || !matches(entry.name)) return [];
		try {
			return [`${realpathSync.native(join(folder, entry.name))}${after}`];
		} catch {
			return [];
		}
	});
}

/** The settings with `exclusionsHere` applied (a copy: what is saved stays as the user wrote it). */
export function withExclusionsHere(settings: Settings): Settings {
	return settings.excludedProjects.length === 0 ? settings : { ...settings, excludedProjects: exclusionsHere(settings.excludedProjects) };
}

/** The real path of `path`, through its longest part that exists (a project folder not made yet is under a linked one). */
function realPrefix(path: string): string | undefined {
	let rest = "";
	let at = path;
	for (let depth = 0; depth < 64; depth++) {
		try {
			return join(realpathSync.native(at), rest);
		} catch {
			const up = dirname(at);
			if (up === at) return undefined;
			rest = join(at.slice(up.length).replace(/^[\\/]+/, ""), rest);
			at = up;
		}
	}
	return undefined;
}
