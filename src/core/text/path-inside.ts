/**
 * The part of `path` after the folder `folder` (written as the session wrote it: `/` separators,
 * trailing ones ignored); undefined when `path` is not inside it.
 */
export function pathInside(path: string, folder: string): string | undefined {
	const root = `${folder.replace(/\/+$/, "")}/`;
	return path.startsWith(root) ? path.slice(root.length) : undefined;
}
