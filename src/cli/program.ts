import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { resolve } from "node:path";
import { errorSentence, fail, sayLine } from "./cli-common";
import { terminalText } from "../core/text/terminal-text";
import { exitWhenFlushed, ignoreClosedOutput } from "./closed-output";

// Each command's code is loaded when it runs: a sync from a hook should not pay for installing hooks.
const sync = () => import("./sync-command");
const projectsCommand = () => import("./projects-command");
const hooksCommand = () => import("./hooks-command");

/** The package's version, set at build time (esbuild.config.mjs). */
declare const AI_MEMORY_VERSION: string | undefined;

/** `ai-memory`: the same engine as the plugin, for hooks, scripts and a closed Obsidian. */
const program = new Command()
	.name("ai-memory")
	.description("Turn coding-agent sessions (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, opencode, Aider) into notes in an Obsidian vault and context in CLAUDE.md.")
	.version(typeof AI_MEMORY_VERSION === "string" ? AI_MEMORY_VERSION : "0.0.0-source", "-V, --version", "print the version")
	.helpOption("-h, --help", "print help for a command")
	.helpCommand("help [command]", "print help for a command")
	.addHelpText(
		"after",
		`
First steps (DIR is your Obsidian vault's folder):
  ai-memory sync --vault DIR                     a note per session, into DIR
  ai-memory projects add ~/code/app --vault DIR  ~/code/app/CLAUDE.md gets the context block
  ai-memory hooks install --vault DIR            lazy recall and syncs from Claude Code's hooks
  ai-memory doctor --vault DIR                   what each project gets, and where

Run \`ai-memory <command> --help\` for a command's options.`,
	)
	.exitOverride()
	// `mcp --vault X` serves, `mcp install --vault X` installs: each command's options are its own.
	.enablePositionalOptions()
	.configureOutput({ writeErr: (text) => process.stderr.write(terminalText(text)), writeOut: (text) => process.stdout.write(text) });

program
	.command("sync")
	.description("Write a note per session into the vault, and the context block into enabled projects' CLAUDE.md")
	.requiredOption("--vault <dir>", "the vault folder", folderArg)
	.option("--claude-dir <dir>", "Claude Code's config folder (default: $CLAUDE_CONFIG_DIR or ~/.claude)", folderArg)
	.option("--project <path>", "a project whose CLAUDE.md gets the context block, for this run (repeatable; `projects add` keeps one)", (value: string, all: string[] = []) => [...all, resolve(folderArg(value))])
	.option("--config-dir <name>", "the vault's configuration folder", ".obsidian")
	.option("--full", "re-render every note, recreating notes you deleted")
	.option("--dry-run", "print what the sync would move and write, and write nothing")
	.option("--json", "print the result as JSON")
	.option("--wait <seconds>", "how long to wait while another sync (the plugin, a hook) runs; default 10", waitSeconds)
	.addOption(new Option("--by <who>", "who started it, for the lock (hooks pass hook)").choices(["cli", "hook"]).hideHelp())
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string; project?: string[]; full?: boolean; dryRun?: boolean; json?: boolean; by?: "cli" | "hook"; wait?: number }) => {
		// Its work done (lock let go, workers stopped, state written), a sync ends at once.
		exitWhenFlushed(await (await sync()).runSyncCommand({ ...options, project: options.project ?? [] }));
	});

/** The agents' files `--also` may name, and the agents `mcp install --agent` knows. */
const ALSO_FILES = ["AGENTS.md", "GEMINI.md"];
const MCP_AGENTS = ["claude-code", "codex", "gemini-cli"];

/**
 * A repeatable option held to its choices: the `.argParser()` that makes it repeatable replaces
 * commander's check of `.choices()` (`--also ../../etc/passwd` was taken and said added, `--agent x`
 * reached the install as a raw TypeError).
 */
function repeatableChoice(choices: readonly string[]): (value: string, all?: string[]) => string[] {
	return (value, all = []) => {
		if (!choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(", ")}.`);
		return [...all, value];
	};
}

/**
 * `--wait`: seconds written in decimal, from 0 to an hour; anything else is refused before anything
 * starts (`abc` waited forever; `0x10` and `1e1`, which `Number` reads, were taken as 16 and 10).
 */
function waitSeconds(value: string): number {
	const seconds = Number(value);
	if (!/^\s*\d+(?:\.\d+)?\s*$/.test(value) || seconds > 3600) throw new InvalidArgumentError("give a number of seconds from 0 to 3600");
	return seconds;
}

/**
 * A folder given on the command line: an empty one (`--vault "$VAULT"` with the variable unset)
 * would resolve to the current folder, and a vault, a project or a Claude Code folder would be
 * made there; refused before anything starts.
 */
function folderArg(value: string): string {
	if (value.trim() === "") throw new InvalidArgumentError("give a folder (an empty value would mean the current folder)");
	if (value.includes("\0")) throw new InvalidArgumentError("a folder's path holds no NUL character");
	return value;
}

const vaultOption = ["--vault <dir>", "the vault folder", folderArg] as const;
const configDirOption = ["--config-dir <name>", "the vault's configuration folder", ".obsidian"] as const;
const claudeDirOption = ["--claude-dir <dir>", "Claude Code's config folder (default: $CLAUDE_CONFIG_DIR or ~/.claude)", folderArg] as const;

const projects = program.command("projects").description("This device's projects: CLAUDE.md context and memory sharing (the settings tab's list)");
projects
	.command("add <path>")
	.description("Enable a project (or change one): its CLAUDE.md gets the context block at the next sync")
	.requiredOption(...vaultOption)
	.addOption(new Option("--mode <mode>", "eager: recent history in the block; lazy: a short pointer to a context packet").choices(["eager", "lazy"]))
	.addOption(new Option("--target <file>", "the file that gets the block").choices(["CLAUDE.md", "CLAUDE.local.md"]))
	.addOption(new Option("--also <file>", "another agent's file that gets the same block: AGENTS.md (Codex), GEMINI.md (Gemini CLI); repeatable").choices(ALSO_FILES).argParser(repeatableChoice(ALSO_FILES)))
	.option(...configDirOption)
	.option("--json", "print the projects as JSON")
	.action(async (path: string, options: { vault: string; configDir?: string; mode?: "eager" | "lazy"; target?: "CLAUDE.md" | "CLAUDE.local.md"; also?: ("AGENTS.md" | "GEMINI.md")[]; json?: boolean }) => {
		process.exitCode = await (await projectsCommand()).runProjectsAdd(path, options);
	});
projects
	.command("list")
	.description("List this device's projects")
	.requiredOption(...vaultOption)
	.option(...configDirOption)
	.option("--json", "print them as JSON")
	.action(async (options: { vault: string; configDir?: string; json?: boolean }) => {
		process.exitCode = await (await projectsCommand()).runProjectsList(options);
	});
projects
	.command("remove <path>")
	.description("Forget a project (its CLAUDE.md is left as it is)")
	.requiredOption(...vaultOption)
	.option(...configDirOption)
	.option("--json", "print the projects left as JSON")
	.action(async (path: string, options: { vault: string; configDir?: string; json?: boolean }) => {
		process.exitCode = await (await projectsCommand()).runProjectsRemove(path, options);
	});

const hooks = program.command("hooks").description("Claude Code hooks: the facade at session start, recall on prompts, a sync when a session ends or compacts");
hooks
	.command("install")
	.description("Add our hooks to Claude Code's settings.json, and our MCP server to its ~/.claude.json (each file is copied to <file>.bak-ai-memory first, when there is one)")
	.requiredOption(...vaultOption)
	.option(...claudeDirOption)
	.option(...configDirOption)
	.option("--no-mcp", "leave out the MCP server")
	.option("--json", "print the result as JSON")
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string; json?: boolean; mcp?: boolean }) => {
		process.exitCode = await (await hooksCommand()).runHooksInstall(options);
	});
hooks
	.command("uninstall")
	.description("Remove our hooks from Claude Code's settings.json and our MCP server from its ~/.claude.json, giving back your files as they were")
	.option(...vaultOption)
	.option(...claudeDirOption)
	.option("--json", "print the result as JSON")
	.action(async (options: { vault?: string; claudeDir?: string; json?: boolean }) => {
		process.exitCode = await (await hooksCommand()).runHooksUninstall(options);
	});
hooks
	.command("status")
	.description("Which of our hooks are installed, and whether they run this CLI for this vault")
	.requiredOption(...vaultOption)
	.option(...claudeDirOption)
	.option(...configDirOption)
	.option("--json", "print the status as JSON")
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string; json?: boolean }) => {
		process.exitCode = await (await hooksCommand()).runHooksStatus(options);
	});

const hook = program
	.command("hook [event]")
	.description("What the hooks that `hooks install` writes run; Claude Code starts it with the hook's JSON on stdin (always exits 0)")
	// Not checked here: a hook always exits 0, and says what was wrong in hooks.log or on stderr.
	.option("--vault <dir>", "the vault folder")
	.option(...configDirOption)
	.option("--from <tag>", "marks the commands we install; ignored")
	.allowUnknownOption()
	.allowExcessArguments()
	.addHelpText(
		"after",
		`
Events:
  session-start        prints the lazy facade when CLAUDE.md could not take it (nothing in eager mode)
  user-prompt-submit   prints the context packet and recalled facts when the prompt asks for the past
  session-end          starts a sync in the background and returns at once
  pre-compact          records a checkpoint (the last prompt and reply) for the facade
  instructions-loaded  notes whether the file Claude Code loaded carries the block (for doctor)

You do not run it yourself; to see what one prints:
  echo '{"cwd": "/path/to/project"}' | ai-memory hook session-start --vault DIR
Failures go to hooks.log in the plugin's folder (\`ai-memory doctor\` shows the last runs).`,
	)
	.action(async (event: string | undefined, options: { vault?: string; configDir?: string }) => {
		if (event === undefined || event === "help") return hook.help();
		process.exitCode = await (await import("./hook-command")).runHookCommand(event, options);
	});

const mcp = program
	.command("mcp")
	.description("Serve the recall tools (search_sessions, get_session, recall_facts, project_context) to an agent over MCP on stdin and stdout")
	.option(...vaultOption)
	.option(...configDirOption)
	.addOption(new Option("--from <tag>", "marks the command `mcp install` writes; ignored").hideHelp())
	.enablePositionalOptions()
	.action(async (options: { vault?: string }) => {
		if (options.vault === undefined) {
			process.exitCode = fail("mcp needs --vault <dir>");
			return;
		}
		// The server is a script of its own (dist/mcp.cjs): the SDK would make every other command slower to start.
		process.exitCode = (await import("./mcp-script")).runMcpScript();
	});
const agentOption = () =>
	new Option("--agent <agent>", "an agent whose user configuration gets the server: claude-code (default), codex, gemini-cli; repeatable")
		.choices(MCP_AGENTS)
		.argParser(repeatableChoice(MCP_AGENTS));
const mcpInstall = () => import("./mcp-install-command");
mcp
	.command("install")
	.description("Add the MCP server to Claude Code's user configuration (~/.claude.json; a backup of yours is kept), or to Codex's or Gemini CLI's")
	.requiredOption(...vaultOption)
	.option(...claudeDirOption)
	.option(...configDirOption)
	.addOption(agentOption())
	.option("--json", "print the result as JSON")
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string; agent?: ("claude-code" | "codex" | "gemini-cli")[]; json?: boolean }) => {
		process.exitCode = await (await mcpInstall()).runMcpInstall(options);
	});
mcp
	.command("uninstall")
	.description("Remove our MCP server from every agent's user configuration, giving back your file as it was")
	.option(...vaultOption)
	.option(...claudeDirOption)
	.option(...configDirOption)
	.addOption(agentOption())
	.option("--json", "print the result as JSON")
	.action(async (options: { vault?: string; claudeDir?: string; configDir?: string; agent?: ("claude-code" | "codex" | "gemini-cli")[]; json?: boolean }) => {
		process.exitCode = await (await mcpInstall()).runMcpUninstall(options);
	});
mcp
	.command("status")
	.description("Which agents have our MCP server, and whether it runs this CLI for this vault")
	.requiredOption(...vaultOption)
	.option(...claudeDirOption)
	.option(...configDirOption)
	.option("--json", "print the status as JSON")
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string; json?: boolean }) => {
		process.exitCode = await (await mcpInstall()).runMcpStatus(options);
	});

program
	.command("doctor")
	.description("What each enabled project gets (block, facade and its tokens), where everything is, and whether the hooks are installed and last ran")
	.requiredOption(...vaultOption)
	.option(...claudeDirOption)
	.option(...configDirOption)
	.action(async (options: { vault: string; claudeDir?: string; configDir?: string }) => {
		process.exitCode = await (await import("./doctor-command")).runDoctor(options);
	});

export function main(argv: string[]): void {
	ignoreClosedOutput();
	program.parseAsync(argv).catch((error: unknown) => {
		if (error instanceof CommanderError) {
			process.exitCode = error.exitCode;
			return;
		}
		sayLine(process.stderr, `ai-memory: ${errorSentence(error)}`);
		process.exitCode = 1;
	});
}

