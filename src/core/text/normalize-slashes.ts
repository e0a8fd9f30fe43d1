/**
 * A path as `/`-separated folders, spelled one way: `\\` is `/`, and `//`, `/./`, `x/..` and a
 * trailing slash are read as a system reads them (a session's `cwd` of `/home/me//secret` or
 * `/home/me/x/../secret` is the excluded `/home/me/secret`: compared as written, its prompts and
 * replies were stored in notes and the state).
 */
export function normalizeSlashes(path: string): string {
	const absolute = /^[\\/]/.test(path);
	const parts: string[] = [];
	for (const part of path.split(/[\\/]+/)) {
		if (part === "" || part === ".") continue;
		if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
		else if (part !== ".." || !absolute) parts.push(part);
	}
	return (absolute ? "/" : "") + parts.join("/");
}
