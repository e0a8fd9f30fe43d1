import { access, constants, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * An absolute path to a Node.js binary for the hooks: on PATH first, then where installers put
 * it (an app started from the desktop often has a shorter PATH than a terminal: macOS GUI apps
 * never see Homebrew's). Undefined when there is none.
 */
export async function findNode(env: NodeJS.ProcessEnv = process.env, home = homedir(), platform = process.platform): Promise<string | undefined> {
	const exe = platform === "win32" ? "node.exe" : "node";
	const dirs = (env.PATH ?? env.Path ?? "").split(delimiter).filter(Boolean);
	dirs.push("/opt/homebrew/bin", "/usr/local/bin", "/usr/bin", join(home, ".volta", "bin"), join(home, ".local", "bin"));
	// nvm: the newest installed version.
	const nvm = join(home, ".nvm", "versions", "node");
	const versions = await readdir(nvm).catch(() => [] as string[]);
	for (const v of versions.sort(byVersion).reverse()) dirs.push(join(nvm, v, "bin"));
	for (const dir of dirs) {
		const path = join(dir, exe);
		if (await access(path, constants.X_OK).then(() => true, () => false)) return path;
	}
	return undefined;
}

function byVersion(a: string, b: string): number {
	const pa = a.replace(/^v/, "").split(".").map(Number);
	const pb = b.replace(/^v/, "").split(".").map(Number);
	for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
	return 0;
}
