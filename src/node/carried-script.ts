import { readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeFileReplacing } from "./atomic-write";
import { bundlePathFor, isBundleOf, isRestOf, restPathFor } from "./code-cache";

/**
 * A script the plugin carries as text (release builds put it into main.js): the loader, and the
 * bundle it runs from a file beside it, named by `hash` (see `bundlePathFor`), and the rest of a
 * bundle split in two, which the bundle loads when it needs it (see `restPathFor`). A script
 * without a bundle is whole in its loader.
 */
export interface CarriedScript {
	loader: string;
	hash?: string;
	bundle?: string;
	rest?: { hash: string; bundle: string };
}

/**
 * Writes a carried script as `path` and, first, its rest and its bundle beside it (a loader never
 * names a bundle that is not there yet, nor a bundle a rest); then other builds' bundles and rests
 * of the same script go.
 */
export async function writeCarriedScript(path: string, script: CarriedScript): Promise<void> {
	const rest = script.rest === undefined ? undefined : restPathFor(path, script.rest.hash);
	if (rest !== undefined && script.rest !== undefined) await writeFileReplacing(rest, script.rest.bundle);
	const keep = script.hash !== undefined && script.bundle !== undefined ? bundlePathFor(path, script.hash) : undefined;
	if (keep !== undefined && script.bundle !== undefined) await writeFileReplacing(keep, script.bundle);
	await writeFileReplacing(path, script.loader);
	for (const name of await readdir(dirname(path))) {
		const other = join(dirname(path), name);
		if ((isBundleOf(path, name) && other !== keep) || (isRestOf(path, name) && other !== rest)) await rm(other, { force: true });
	}
}

/** Whether `value` (a build's constant) is a carried script. */
export function isCarriedScript(value: unknown): value is CarriedScript {
	if (typeof value !== "object" || value === null || typeof (value as CarriedScript).loader !== "string") return false;
	const rest = (value as CarriedScript).rest;
	return rest === undefined || (typeof rest === "object" && rest !== null && typeof rest.hash === "string" && typeof rest.bundle === "string");
}
