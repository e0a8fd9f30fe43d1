import { Command, CommanderError } from "commander";
import { resolve } from "node:path";
import { runSyncCommand } from "./sync-command";

/** `ai-memory`: the same engine as the plugin, for hooks, scripts and a closed Obsidian. */
const program = new Command()
	.name("ai-memory")
	.description("Turn Claude Code sessions into notes in an Obsidian vault and context in CLAUDE.md.")
	.exitOverride()
	.configureOutput({ writeErr: (text) => process.stderr.write(text), writeOut: (text) => process.stdout.write(text) });

program
	.command("sync")
	.description("Write a note per session into the vault, and the context block into enabled projects' CLAUDE.md")
	.requiredOption("--vault <dir>", "the vault folder")
	.option("--claude-dir <dir>", "Claude Code's config folder (default: $CLAUDE_CONFIG_DIR or ~/.claude)")
	.option("--project <path>", "a project whose CLAUDE.md gets the context block (repeatable)", (value: string, all: string[]) => [...all, resolve(value)], [] as string[])
	.option("--config-dir <name>", "the vault's configuration folder", ".obsidian")
	.option("--full", "re-render every note, recreating notes you deleted")
	.option("--json", "print the result as JSON")
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string; project: string[]; full?: boolean; json?: boolean }) => {
		process.exitCode = await runSyncCommand(options);
	});

program.parseAsync(process.argv).catch((error: unknown) => {
	if (error instanceof CommanderError) {
		process.exitCode = error.exitCode;
		return;
	}
	process.stderr.write(`ai-memory: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
