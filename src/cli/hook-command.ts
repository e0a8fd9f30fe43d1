import { blockOnFiles } from "../node/blocking-files";
import { runHook } from "../node/hook-handlers";
import { cliScriptPath } from "./cli-common";
import { readStdin } from "./hook-stdin";
import { loadSettings } from "./settings-file";

/**
 * `ai-memory hook <session-start|user-prompt-submit|session-end|pre-compact> --vault DIR`: what our
 * Claude Code hooks run. Always exits 0: a failure is logged in the plugin folder's hooks.log and
 * Claude Code goes on as if there were no hook.
 */

export interface HookCommandOptions {
	vault?: string;
	configDir?: string;
	/** The CLI that background syncs run (the hook script passes it; the CLI is itself). */
	cli?: string;
}

/** Longest wait for stdin: Claude Code writes the input at once; a terminal would never close it. */
const STDIN_TIMEOUT_MS = 3000;
/**
 * Most of stdin read: the input is a few fields and the prompt; 200 MB of it (a huge paste) made
 * the hook die out of memory, exit 134 instead of 0. Past this, what was read is no JSON, and the
 * run fails open like any other input that is not.
 */
const STDIN_MAX_BYTES = 16 * 1024 * 1024;

export async function runHookCommand(name: string, options: HookCommandOptions): Promise<number> {
	// A hook waits on nothing but its few small files: read and written blocking, each a system call,
	// not a thread-pool round trip (measured: 4 to 6 ms of every hook, of the 65 ms `node -e 0` takes).
	blockOnFiles();
	const stdin = await readStdin(STDIN_TIMEOUT_MS, STDIN_MAX_BYTES).catch(() => "");
	const result = await runHook(name, {
		vault: options.vault,
		configDir: options.configDir,
		stdin,
		cliPath: options.cli ?? cliScriptPath(),
		loadSettings: (path, host) => loadSettings(path, [], host),
	});
	if (result.output !== "") await new Promise<void>((done) => process.stdout.write(result.output, () => done()));
	return 0;
}
