import { realpathSync } from "node:fs";
import { readPlainFile } from "./confined-path";
import { dirname, resolve, sep } from "node:path";
import { deviceIdOf, type ProjectSettings } from "../core/settings";
import type { HookContext } from "../core/plan/hook-context";
import { hookContextPath } from "./plugin-paths";
import { resolveProjectFolder } from "./project-resolver";
import { isOtherRepository } from "./repository-fingerprint";

/**
 * What a hook needs to know about the project Claude Code runs in: which enabled project it is,
 * its recall triggers, and what the last sync prepared for it.
 */

/**
 * The enabled project whose folder is `cwd` or holds it (the deepest one when several do), else
 * the one of the same git repository (a linked worktree's main checkout), else undefined. A project configured through a symlink is matched by its real path too, as Claude
 * Code reports the real cwd.
 */
export function projectForCwd<P extends Pick<ProjectSettings, "path" | "enabled">>(projects: readonly P[], cwd: string): P | undefined {
	const here = comparable(cwd);
	const enabled = projects.filter((p) => p.enabled);
	const within = (path: string) => here === path || here.startsWith(path.endsWith(sep) ? path : `${path}${sep}`);
	const best = (paths: (p: P) => string) =>
		enabled
			.map((p) => ({ p, path: paths(p) }))
			.filter((c) => within(c.path))
			.sort((a, b) => b.path.length - a.path.length)[0]?.p;
	return best((p) => comparable(p.path)) ?? best((p) => comparable(realPath(p.path))) ?? sameRepository(enabled, cwd);
}

/** The enabled project of the same repository: a linked worktree's sessions belong to its main checkout. */
function sameRepository<P extends Pick<ProjectSettings, "path">>(projects: readonly P[], cwd: string): P | undefined {
	const here = resolveProjectFolder(cwd);
	if (!here?.repository) return undefined;
	return projects.find((p) => resolveProjectFolder(p.path)?.root === here.root);
}

function comparable(path: string): string {
	const resolved = resolve(path);
	const trimmed = resolved.length > 1 && resolved.endsWith(sep) && !/^[A-Za-z]:\\$/.test(resolved) ? resolved.slice(0, -1) : resolved;
	// Windows and macOS folders are usually case-insensitive; Windows always.
	return process.platform === "win32" ? trimmed.toLowerCase() : trimmed;
}

function realPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}


/** This device's projects in data.json as stored, every key of each kept (`devices[<id>].projects`, or a version 1 file's `projects`). */
export function storedProjects(rawSettings: unknown, host: string): Record<string, unknown>[] {
	const o = isRecord(rawSettings) ? rawSettings : {};
	const devices = isRecord(o.devices) ? o.devices : undefined;
	const id = deviceIdOf(host);
	const device = devices && Object.prototype.hasOwnProperty.call(devices, id) && isRecord(devices[id]) ? devices[id] : undefined;
	const list = device ? device.projects : devices === undefined ? o.projects : undefined;
	return Array.isArray(list) ? list.filter(isRecord) : [];
}

/** The project's hook context as the last sync wrote it; undefined when no sync wrote one yet. Throws when it is damaged. */
export async function readHookContext(stateDir: string, projectPath: string): Promise<HookContext | undefined> {
	const path = hookContextPath(stateDir, projectPath);
	let text: string;
	try {
		text = await readPlainFile(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return undefined;
		// Node's "ENOTDIR: not a directory, open …" named no cause in doctor and hooks.log.
		if (code === "ENOTDIR") throw new Error(`${path} cannot be read: a file is where one of its folders goes (${dirname(path)} or one above it); move that file away, and the next sync writes the hook contexts again`);
		throw error;
	}
	// Damaged (a crash left it empty or zeroed): said with its path, as a wrong shape is; Node's own words
	// ("Unexpected end of JSON input") named no file in the hooks' log, doctor or the MCP server's answer.
	let data: Partial<HookContext> | null;
	try {
		data = JSON.parse(text) as Partial<HookContext> | null;
	} catch {
		throw new Error(`${path} is not a hook context this version reads (it is not JSON; the next sync writes it again)`);
	}
	if (!isRecord(data) || data.version !== 1 || typeof data.facade !== "string" || typeof data.packet !== "string") throw new Error(`${path} is not a hook context this version reads`);
	// Made for the repository that had the path, before another one was made there: none of it is this one's (the next sync makes its own).
	if (typeof data.fingerprint === "string" && (await isOtherRepository(projectPath, data.fingerprint))) return undefined;
	// A body or the packet's path of another type (a hand edit, another release) is none: one body that was a number made every recall of the project fail (attack round 50a).
	const bodies = isRecord(data.bodies) ? Object.fromEntries(Object.entries(data.bodies).filter(([, body]) => typeof body === "string")) : {};
	return { ...(data as HookContext), packetPath: typeof data.packetPath === "string" ? data.packetPath : "", bodies };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
