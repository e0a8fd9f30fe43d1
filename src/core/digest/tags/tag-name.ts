/**
 * Obsidian tag names. A tag is letters (any script), numbers, `_`, `-` and `/` for nesting, with at
 * least one non-numeric character and no spaces. Latin is lower-cased so `Docker` and `docker`
 * are one tag.
 */

/** The path segments of a would-be tag: `#`, spaces and punctuation folded to `-`, empty segments dropped. */
function segmentsOf(text: string): string[] {
	return text
		.normalize("NFKC")
		.toLowerCase()
		.replace(/^[\s#]+/, "")
		.replace(/['’`]/g, "")
		.split("/")
		.map((s) => s.replace(/[^\p{L}\p{M}\p{N}_-]+/gu, "-").replace(/-{2,}/g, "-").replace(/^-+|-+$/g, ""))
		.filter((s) => s !== "");
}

const LETTER = /\p{L}/u;

/** `ai`, `ai/`, `#ai/` → `ai/`; empty → empty. */
export function normalizePrefix(prefix: string): string {
	const parts = segmentsOf(prefix);
	return parts.length > 0 ? `${parts.join("/")}/` : "";
}

/**
 * `raw` as a valid tag under `prefix` (with or without its trailing slash), or undefined when
 * nothing taggable is left (empty, punctuation only, or no letter at all, e.g. `2024`).
 * A `raw` that already starts with the prefix is not prefixed twice.
 */
export function toTag(prefix: string, raw: string): string | undefined {
	const head = segmentsOf(prefix);
	let body = segmentsOf(raw);
	if (head.length > 0 && head.length < body.length && head.every((s, i) => body[i] === s)) body = body.slice(head.length);
	if (body.length === 0 || !body.some((s) => LETTER.test(s))) return undefined;
	return [...head, ...body].join("/");
}

/**
 * The project part of `<prefix>project/<slug>`: lower-cased, anything but letters, numbers, `_`
 * and `-` (a `/` too: a project is one level) folded to `-`. Same result as the sync engine's
 * existing project tag for ordinary folder names.
 */
export function projectSlug(project: string): string {
	return project.toLowerCase().replace(/[^\p{L}\p{M}\p{N}_-]+/gu, "-").replace(/^-+|-+$/g, "") || "unnamed";
}

/**
 * Folder names that say nothing about which project it is: a placeholder (`project`, `repo`,
 * `workspace`, `src`, `untitled`) or the name of where projects live (`home`, `tmp`, `dev`).
 */
const PLACEHOLDER_NAMES = new Set(
	`project projects my-project new-project sample-project example-project repo repos repository my-repo workspace workspaces work src source code
	untitled unnamed unknown-project home user users root tmp temp dev desktop documents downloads`.split(/\s+/),
);

/**
 * A folder that holds a repository's linked worktrees (never the project's own folder):
 * `<repo>/.worktrees/<name>`, `<repo>/.claude/worktrees/<name>`, `<repo>-worktrees/<name>`.
 */
const WORKTREE_FOLDER = /^(.*?)[-_.]?worktrees?$/i;

/**
 * Whether a project slug names a project. Not: a placeholder word (`project`, `repo`), digits
 * alone (`2`), a temporary folder (`tmpw6sk2trg`, `tmp.x7Gh2`), a hash, or the session's branch
 * (a worktree named after its branch).
 */
export function isMeaningfulProjectSlug(slug: string, branches: readonly string[] = []): boolean {
	if (PLACEHOLDER_NAMES.has(slug) || !/\p{L}/u.test(slug)) return false;
	if (/^(?:tmp|temp)[._-]?[a-z0-9_]{6,10}$/.test(slug) || /^[0-9a-f]{7,}$/.test(slug) || /^[0-9a-f]{8}-[0-9a-f-]+$/.test(slug)) return false;
	return !branches.some((b) => {
		const branch = b.toLowerCase();
		return branch === slug || (branch.includes("/") && projectSlug(branch.slice(branch.lastIndexOf("/") + 1)) === slug && slug.includes("-"));
	});
}

/**
 * The slug of the project tag (`<prefix>project/<slug>`), or undefined when the folder name says
 * nothing (`isMeaningfulProjectSlug`). A linked worktree (`…/cli/.worktrees/2`) is tagged with its
 * repository (`cli`) when the project's path is known.
 */
export function projectTagSlug(project: string, projectPath?: string, branches: readonly string[] = []): string | undefined {
	const slug = projectSlug(project);
	const dirs = (projectPath ?? "").replace(/\\/g, "/").split("/").filter((d) => d !== "");
	// A home folder (/Users/me, /home/me) is where projects live, not one.
	if (dirs.length === 2 && /^(?:users|home)$/i.test(dirs[0] ?? "") && dirs[1]?.toLowerCase() === project.toLowerCase()) return undefined;
	for (let i = dirs.length - 2; i >= 0; i--) {
		const holder = WORKTREE_FOLDER.exec(dirs[i] ?? "");
		if (!holder) continue;
		// `spotter-worktrees` names its repository; `.worktrees` sits in it (`.claude/worktrees` one level deeper).
		const repo = holder[1] !== "" && holder[1] !== "." ? holder[1] : dirs[dirs[i - 1] === ".claude" ? i - 2 : i - 1];
		const repoSlug = repo === undefined ? undefined : projectSlug(repo);
		if (repoSlug !== undefined && isMeaningfulProjectSlug(repoSlug)) return repoSlug;
	}
	return isMeaningfulProjectSlug(slug, branches) ? slug : undefined;
}
