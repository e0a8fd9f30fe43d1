/**
 * The coding agents whose sessions the sync reads. A session's agent is a property of its file
 * (where it was found); every agent's sessions become the same model, notes and context.
 */
export const AGENTS = ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "aider"] as const;

export type AgentId = (typeof AGENTS)[number];

/** How a person calls each agent, in notes and in the context block. */
export const AGENT_NAMES: Readonly<Record<AgentId, string>> = {
	"claude-code": "Claude Code",
	codex: "Codex",
	"gemini-cli": "Gemini CLI",
	"copilot-cli": "Copilot CLI",
	opencode: "opencode",
	aider: "Aider",
};

/** A file or model's agent: Claude Code when none is recorded (what releases before other agents stored). */
export function agentOf(item: { agent?: AgentId } | undefined): AgentId {
	return item?.agent ?? "claude-code";
}

export function isAgentId(value: unknown): value is AgentId {
	return typeof value === "string" && (AGENTS as readonly string[]).includes(value);
}
