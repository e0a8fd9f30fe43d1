import { readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeFileReplacing } from "./atomic-write";
import { bundlePathFor, isBundleOf } from "./code-cache";

/**
 * A script the plugin carries as text (release builds put it into main.js): the loader, and the
 * bundle it runs from a file beside it, named by `hash` (see `bundlePathFor`). A script without a
 * bundle is whole in its loader.
 */
export interface CarriedScript {
	loader: string;
	hash?: string;
	bundle?: string;
}

/**
 * Writes a carried script as `path` and, first, its bundle beside it (a loader never names a
 * bundle that is not there yet); then other builds' bundles of the same script go.
 */
export async function writeCarriedScript(path: string, script: CarriedScript): Promise<void> {
	const keep = script.hash !== undefined && script.bundle !== undefined ? bundlePathFor(path, script.hash) : undefined;
	if (keep !== undefined && script.bundle !== undefined) await writeFileReplacing(keep, script.bundle);
	await writeFileReplacing(path, script.loader);
	for (const name of await readdir(dirname(path))) {
		if (isBundleOf(path, name) && join(dirname(path), name) !== keep) await rm(join(dirname(path), name), { force: true });
	}
}

/** Whether `value` (a build's constant) is a carried script. */
export function isCarriedScript(value: unknown): value is CarriedScript {
	return typeof value === "object" && value !== null && typeof (value as CarriedScript).loader === "string";
}
