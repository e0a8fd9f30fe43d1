import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * How the e2e harness installs a real client from npm into `<repo>/.cache/…`: into a temporary
 * folder first, renamed into place when complete, so several processes may ask at once and a
 * half-done install is never used.
 */

/** `npm install <spec>` into `prefix`, without scripts, a lock or the repo's own package.json. */
export function npmInstall(prefix: string, spec: string, log: (msg: string) => void, extraArgs: string[] = []): void {
	mkdirSync(prefix, { recursive: true });
	// A package.json keeps npm from walking up into the repo's own package.json.
	writeFileSync(join(prefix, "package.json"), JSON.stringify({ name: "e2e-client-cache", private: true }) + "\n");
	log(`installing ${spec} into ${prefix}`);
	execFileSync(
		"npm",
		["install", "--prefix", prefix, "--no-save", "--ignore-scripts", ...extraArgs, "--no-audit", "--no-fund", "--no-package-lock", "--engine-strict=false", "--loglevel=error", spec],
		{ stdio: ["ignore", "pipe", "pipe"], cwd: prefix, timeout: 300_000 },
	);
}

/**
 * The install in `target`, made there by `install(tmp)` when `find` does not find a complete one.
 * @param find what a complete install gives (undefined: not there or broken).
 * @param what names the install in errors.
 */
export function installOnce<T>(target: string, find: (dir: string) => T | undefined, install: (tmp: string) => void, log: (msg: string) => void, what: string): T {
	const there = existsSync(target) ? find(target) : undefined;
	if (there) return there;
	const parent = dirname(target);
	mkdirSync(parent, { recursive: true });
	const tmp = join(parent, `.tmp-${process.pid}-${Date.now()}`);
	const started = Date.now();
	try {
		install(tmp);
		if (!find(tmp)) throw new Error(`${what}: nothing usable after installing into ${tmp}`);
		if (existsSync(target) && !find(target)) rmSync(target, { recursive: true, force: true }); // broken leftover
		try {
			renameSync(tmp, target);
		} catch (err) {
			// Another process won the race: use its install.
			if (!find(target)) throw err;
		}
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
	log(`installed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	const found = find(target);
	if (!found) throw new Error(`${what} at ${target} is not usable`);
	return found;
}
