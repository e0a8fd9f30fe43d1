import { readdirSync, readFileSync, rmSync } from "node:fs";

/**
 * Removes a test's folder once no process works in it any more. A SessionEnd hook starts a detached
 * `ai-memory sync` that may still be waiting for the lock, or storing its state, when the test is
 * done; the lock file alone cannot tell (it is absent while a queued sync has not taken it yet).
 * So this looks for live processes whose command line names the folder (Linux `/proc`).
 */
export async function removeWhenIdle(root: string, giveUpMs = 60_000): Promise<void> {
	for (const giveUp = Date.now() + giveUpMs; workingIn(root) && Date.now() < giveUp; ) await new Promise((r) => setTimeout(r, 100));
	rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

function workingIn(root: string): boolean {
	let pids: string[];
	try {
		pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
	} catch {
		return false; // no /proc: the retries of rmSync are all there is
	}
	return pids.some((pid) => {
		try {
			return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").some((arg) => arg.startsWith(root));
		} catch {
			return false; // it ended while we looked
		}
	});
}
