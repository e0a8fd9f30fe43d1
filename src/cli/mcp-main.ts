import { runMcpServer } from "./mcp-command";

/** `ai-memory mcp [--vault DIR] [--config-dir NAME]`, read without the full command line. */
export function main(args: readonly string[]): void {
	const options: { vault?: string; configDir?: string } = {};
	const unknown: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? "";
		const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
		const value = () => inline ?? args[++i];
		if (flag === "--vault") options.vault = value();
		else if (flag === "--config-dir") options.configDir = value();
		// The mark `mcp install` ends its command line with, to know its entry from the user's.
		else if (flag === "--from") value();
		else unknown.push(arg);
	}
	const fail = (reason: string) => {
		process.stderr.write(`ai-memory mcp: ${reason}\n`);
		process.exitCode = 2;
	};
	if (unknown.length > 0) return fail(`unknown argument ${JSON.stringify(unknown[0])} (usage: ai-memory mcp --vault <dir> [--config-dir <name>])`);
	if (!options.vault) return fail("needs --vault <dir>");
	runMcpServer({ vault: options.vault, configDir: options.configDir }).then(
		(code) => (process.exitCode = code),
		(error: unknown) => fail(error instanceof Error ? error.message : String(error)),
	);
}
