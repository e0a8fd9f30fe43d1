import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NEW_REPOSITORY } from "../../src/core/projects/replaced-repository";
import { repositoryFingerprint } from "../../src/node/repository-fingerprint";

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

/** A repository with a first commit whose message makes its root commit its own. */
function repository(path: string, message: string): string {
	mkdirSync(path, { recursive: true });
	git(path, "init", "-q");
	git(path, "commit", "-q", "--allow-empty", "-m", message);
	return git(path, "rev-parse", "HEAD");
}

/** Runs `run` with no `git` to be found: what it answers then was read from the files alone. */
async function withoutGit<T>(run: () => Promise<T>): Promise<T> {
	const path = process.env.PATH;
	process.env.PATH = "";
	try {
		return await run();
	} finally {
		process.env.PATH = path;
	}
}

describe("repositoryFingerprint", () => {
	let root = "";
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), "fingerprint-"));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("is the root commit, and a later commit or branch does not change it", async () => {
		const app = join(root, "app");
		const first = repository(app, "app begins");
		expect(await repositoryFingerprint(app, undefined)).toBe(first);
		git(app, "commit", "-q", "--allow-empty", "-m", "more");
		expect(await repositoryFingerprint(app, undefined)).toBe(first);
	});

	it("confirms the recorded fingerprint from the object files, loose or packed (a clone), without running git", async () => {
		const app = join(root, "app");
		const first = repository(app, "app begins");
		expect(await withoutGit(() => repositoryFingerprint(app, first))).toBe(first);
		// Over a URL the clone gets a pack and its index, no loose object.
		git(root, "clone", "-q", `file://${app}`, "clone");
		expect(await withoutGit(() => repositoryFingerprint(join(root, "clone"), first))).toBe(first);
		// Not recorded: only git can say.
		expect(await withoutGit(() => repositoryFingerprint(join(root, "clone"), undefined))).toBeUndefined();
	});

	it("is the other repository's own roots when it does not hold the recorded one", async () => {
		const first = repository(join(root, "app"), "app begins");
		const other = repository(join(root, "other"), "other begins");
		expect(await repositoryFingerprint(join(root, "other"), first)).toBe(other);
	});

	it("runs no command a repository's configuration names: a partial clone's missing commit is not fetched (its proxy command would run)", async () => {
		const app = join(root, "app");
		const first = repository(app, "app begins");
		git(app, "commit", "-q", "--allow-empty", "-m", "more");
		// A partial clone whose promisor remote is reached through the repository's own proxy command.
		const ran = join(root, "proxy-ran");
		const proxy = join(root, "proxy.sh");
		writeFileSync(proxy, `#!/bin/sh\ntouch '${ran}'\n`);
		chmodSync(proxy, 0o755);
		for (const [key, value] of [["core.repositoryformatversion", "1"], ["extensions.partialClone", "origin"], ["remote.origin.promisor", "true"], ["remote.origin.url", "git://127.0.0.1:9/x"], ["core.gitProxy", proxy], ["core.sshCommand", proxy]]) git(app, "config", key!, value!);
		rmSync(join(app, ".git", "objects", first.slice(0, 2), first.slice(2)));
		expect(await repositoryFingerprint(app, undefined)).toBeUndefined();
		expect(existsSync(ran)).toBe(false);
	});

	it("looks in each object folder once: an alternates file listing its own folder thousands of times ends at once", async () => {
		const app = join(root, "app");
		const first = repository(app, "app begins");
		const objects = join(app, ".git", "objects");
		mkdirSync(join(objects, "info"), { recursive: true });
		writeFileSync(join(objects, "info", "alternates"), `${".\n".repeat(5000)}${objects}\n`.repeat(2));
		// A commit it never held: every folder is looked in for it, then git is asked.
		expect(await repositoryFingerprint(app, "a".repeat(40))).toBe(first);
		expect(await withoutGit(() => repositoryFingerprint(app, first))).toBe(first);
	}, 10_000);

	it("is the repository's own, whatever GIT_DIR this process has (a sync run from a git hook)", async () => {
		const first = repository(join(root, "app"), "app begins");
		repository(join(root, "other"), "other begins");
		const before = process.env.GIT_DIR;
		process.env.GIT_DIR = join(root, "other", ".git");
		try {
			expect(await repositoryFingerprint(join(root, "app"), undefined)).toBe(first);
		} finally {
			if (before === undefined) delete process.env.GIT_DIR;
			else process.env.GIT_DIR = before;
		}
	});

	it("is none for a repository with no commit yet (git is not even asked), a shallow clone, and a folder outside git", async () => {
		mkdirSync(join(root, "empty"));
		git(join(root, "empty"), "init", "-q");
		expect(await withoutGit(() => repositoryFingerprint(join(root, "empty"), undefined))).toBeUndefined();
		// Where one with commits was recorded, it is a repository made anew there.
		expect(await withoutGit(() => repositoryFingerprint(join(root, "empty"), "a".repeat(40)))).toBe(NEW_REPOSITORY);

		const app = join(root, "app");
		const first = repository(app, "app begins");
		git(app, "commit", "-q", "--allow-empty", "-m", "more");
		git(root, "clone", "-q", "--depth", "1", `file://${app}`, "shallow");
		expect(await repositoryFingerprint(join(root, "shallow"), first)).toBeUndefined();

		mkdirSync(join(root, "plain"));
		writeFileSync(join(root, "plain", "a.txt"), "x");
		expect(await repositoryFingerprint(join(root, "plain"), undefined)).toBeUndefined();
	});
});
