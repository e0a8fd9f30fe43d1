import type { SessionEvent, SessionModel, ToolCall } from "../transcript/session-model";
import { commandRequest, requestOf } from "./request-text";

/**
 * A session as a sequence of tasks: a typed prompt that asks for something, with the work done
 * until the next such prompt. Acknowledgements ("ok", "thanks", "go on") and control commands
 * (`/model`, `/clear`) start no task; the work after them belongs to the task before.
 */
export interface SessionTask {
	/** The request, cleaned (no greeting, no paste); undefined for work before any request. */
	ask?: string;
	timestamp?: string;
	/** The task's tool calls, inline sub-agent calls of old clients included. */
	calls: ToolCall[];
	/** The assistant's texts in the task, in order (main thread only). */
	texts: string[];
	/** For each text, how many of the task's calls came before it. */
	textAt: number[];
}

/** Built-in commands that steer the client rather than ask for work. */
const CONTROL_COMMANDS = new Set([
	"add-dir", "agents", "bashes", "bug", "clear", "color", "compact", "config", "context", "cost", "doctor", "effort", "exit", "export",
	"fast", "feedback", "help", "hooks", "ide", "install-github-app", "keybindings", "login", "logout", "mcp", "memory", "migrate-installer",
	"model", "output-style", "permissions", "plugin", "plugins", "privacy-settings", "quit", "release-notes", "rename", "resume", "rewind",
	"sandbox", "status", "statusline", "terminal-setup", "theme", "todos", "upgrade", "usage", "vim", "allowed-tools", "approved-tools", "stickers",
]);

export function sessionTasks(model: SessionModel): SessionTask[] {
	const tasks: SessionTask[] = [];
	let current: SessionTask | undefined;
	const work = (): SessionTask => {
		if (!current) {
			current = { calls: [], texts: [], textAt: [] };
			tasks.push(current);
		}
		return current;
	};
	// Whether the agent said or did anything yet: before that, a prompt acknowledges nothing.
	let answered = false;
	for (const event of model.events) {
		if (event.kind === "prompt") {
			const ask = askOf(event, answered);
			if (ask === null) continue;
			current = { ask, timestamp: event.timestamp, calls: [], texts: [], textAt: [] };
			tasks.push(current);
		} else if (event.kind === "tool") {
			answered = true;
			work().calls.push(event.call);
		} else if (event.kind === "text" && event.sidechain === undefined) {
			answered = true;
			const task = work();
			task.texts.push(event.text);
			task.textAt.push(task.calls.length);
		}
	}
	return tasks;
}

/** Built-in commands whose prompt is the client's own (`/init` sends "Please analyze this codebase…"): it asks nothing the user wrote. */
const CLIENT_PROMPTS = new Set(["init", "review", "security-review", "pr-comments"]);

/** The ask of a prompt event; null when the prompt starts no task. */
function askOf(event: Extract<SessionEvent, { kind: "prompt" }>, replying: boolean): string | undefined | null {
	if (event.promptKind === "shell") return null;
	if (event.promptKind === "command") {
		const [name = "", ...args] = event.text.trim().split(/\s+/);
		const bare = name.replace(/^\//, "").toLowerCase();
		if (CONTROL_COMMANDS.has(bare)) return null;
		if (args.length > 0) {
			const request = requestOf(args.join(" "));
			return request ? `${name} ${request}` : name;
		}
		// Without arguments, what the command asks is in its prompt: told as the command's.
		const request = event.expansion !== undefined && !CLIENT_PROMPTS.has(bare) ? commandRequest(event.expansion) : undefined;
		return request ? `${name}: ${request}` : name;
	}
	return requestOf(event.text, undefined, replying) ?? null;
}
