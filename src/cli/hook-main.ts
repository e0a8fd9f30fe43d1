import { exitWhenFlushed, ignoreClosedOutput } from "./closed-output";
import { runHookCommand } from "./hook-command";

/**
 * `ai-memory hook <event> [--vault DIR] [--config-dir NAME] [--from …]`, read without the full
 * command line (a hook must start fast). Unknown options are ignored; it always exits 0.
 */
export function main(args: readonly string[]): void {
	ignoreClosedOutput(true);
	let event = "";
	const options: { vault?: string; configDir?: string; cli?: string } = {};
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? "";
		const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
		const value = () => inline ?? args[++i];
		if (flag === "--vault") options.vault = value();
		else if (flag === "--config-dir") options.configDir = value();
		else if (flag === "--cli") options.cli = value();
		else if (flag === "--from") value();
		else if (!flag.startsWith("-") && event === "") event = flag;
	}
	// Its work done (what it printed awaited, a background sync started detached), it ends at once.
	void runHookCommand(event, options).then(
		(code) => exitWhenFlushed(code),
		() => exitWhenFlushed(0),
	);
}
