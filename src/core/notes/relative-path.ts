/** A path inside the project as the project names it (`src/cart.ts`); any other path as it is. */
export function relativeTo(file: string, root: string | undefined): string {
	if (root && file.startsWith(`${root}/`)) return file.slice(root.length + 1);
	return file;
}
