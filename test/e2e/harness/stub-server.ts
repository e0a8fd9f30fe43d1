/**
 * A scripted local stand-in for the Anthropic Messages API, good enough for the
 * real Claude Code CLI to run whole sessions against it.
 *
 * - `POST /v1/messages` answers streaming (SSE) and non-streaming requests.
 * - `POST /v1/messages/count_tokens` answers a fixed count.
 * - Anything else gets a harmless JSON answer (and is recorded).
 *
 * Every request is recorded (`stub.requests`) so tests can assert what context
 * reached the "model".
 *
 * Scripting: a script is a list of rules. A rule matches a conversation by the
 * text of its latest real user prompt (substring, RegExp or predicate) and has
 * steps; each step is one assistant reply (a list of blocks). The first step
 * answers the prompt; when the latest message is a tool_result for a tool_use
 * the stub issued, the stub answers with the next step of the rule that issued
 * it. tool_use ids encode rule and step (`toolu_e2e_r<rule>s<step>b<block>n<seq>`),
 * so the stub needs no per-conversation state and a resumed session keeps working.
 * Sub-agents (Agent tool) make their own requests whose first user message is the
 * task prompt: a rule matching that prompt scripts the sub-agent.
 * Requests without tools (title/topic generation and other side requests) get
 * `sideReply`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listenLocal, readRequest } from "./stub-http.js";

export type StubBlock =
	| { type: "text"; text: string }
	| { type: "thinking"; thinking: string }
	| { type: "tool_use"; name: string; input: Record<string, unknown> };

/** One assistant reply: a list of blocks (a bare string is one text block). */
export type StubStep = StubBlock[] | string;

export type PromptMatcher = string | RegExp | ((prompt: string, body: MessagesRequest) => boolean);

export interface StubRule {
	/** Optional label, shown in the request log. */
	name?: string;
	/** Matches the latest real user prompt (string = substring). */
	match: PromptMatcher;
	steps: StubStep[];
}

export interface StubScript {
	rules: StubRule[];
	/** Reply to requests without tools (titles, topics, summaries...). Default: "Scripted session". */
	sideReply?: string | ((body: MessagesRequest) => string);
	/** Reply to conversation-compaction requests (`/compact`, auto-compact). Must contain a <summary> block. */
	compactReply?: string;
	/** Reply when a main request matches no rule, or a rule has run out of steps. Default: "Done." */
	fallbackReply?: string;
	/** Model name echoed in responses. Default: the requested model. */
	model?: string;
}

/** The subset of a Messages API request body the stub looks at. */
export interface MessagesRequest {
	model?: string;
	stream?: boolean;
	system?: string | Array<{ type: string; text?: string }>;
	tools?: Array<{ name: string; description?: string; input_schema?: unknown }>;
	messages?: ApiMessage[];
	[key: string]: unknown;
}

export interface ApiMessage {
	role: string;
	content: string | Array<Record<string, unknown>>;
}

export type RequestKind = "main" | "side" | "compact" | "count_tokens" | "other";

export interface RecordedRequest {
	seq: number;
	method: string;
	/** Path including query string, e.g. `/v1/messages?beta=true`. */
	url: string;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body, or the raw text if it was not JSON, or null. */
	body: unknown;
	kind: RequestKind;
	/** For messages requests: sent by a sub-agent (`cc_is_subagent=true` in the system prompt / `x-claude-code-agent-id` header). */
	subagent?: boolean;
	/** The sub-agent's id (`x-claude-code-agent-id` header) = its transcript `agent-<id>.jsonl`. */
	agentId?: string;
	/** For `main`: the latest real user prompt that was matched. */
	prompt?: string;
	/** For `main`: which rule/step answered (undefined = fallback). */
	rule?: number;
	step?: number;
	/** The blocks the stub answered with (messages requests only). */
	reply?: StubBlock[];
}

export interface Stub {
	/** e.g. `http://127.0.0.1:41234` — use as ANTHROPIC_BASE_URL. */
	url: string;
	port: number;
	requests: RecordedRequest[];
	/** Only the `POST /v1/messages` requests that went through the rules. */
	mainRequests(): RecordedRequest[];
	/** Replace the script (e.g. between two runs that share one stub). */
	setScript(script: StubScript): void;
	/** Forget recorded requests. */
	clear(): void;
	close(): Promise<void>;
}

const COMPACT_RE = /create a detailed summary of the conversation/i;
const DEFAULT_COMPACT_REPLY =
	"<analysis>Scripted compaction.</analysis>\n<summary>Summary of the conversation so far: the user asked for scripted changes and they were made.</summary>";
const TOOL_ID_RE = /^toolu_e2e_r(\d+)s(\d+)b\d+n\d+$/;
const REMINDER_RE = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/** Text of a user message that the user typed (not tool results, not system reminders). */
export function userPromptText(content: string | Array<Record<string, unknown>>): string | undefined {
	if (typeof content === "string") return REMINDER_RE.test(content) ? undefined : content;
	const parts: string[] = [];
	for (const block of content) {
		if (block.type !== "text" || typeof block.text !== "string") continue;
		if (REMINDER_RE.test(block.text)) continue;
		parts.push(block.text);
	}
	return parts.length > 0 ? parts.join("\n") : undefined;
}

/** The latest user message in the request that carries typed text. */
export function latestUserPrompt(body: MessagesRequest): string | undefined {
	const messages = body.messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (!m || m.role !== "user") continue;
		const text = userPromptText(m.content);
		if (text !== undefined) return text;
	}
	return undefined;
}

/**
 * The latest user message, skipping the `role: "system"` messages Claude Code
 * interleaves (environment, agent listings...).
 */
function lastUserMessage(body: MessagesRequest): ApiMessage | undefined {
	const messages = body.messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (!m || m.role === "system") continue;
		return m.role === "user" ? m : undefined;
	}
	return undefined;
}

/** tool_use ids answered by tool_result blocks in the latest user message. */
function latestToolResultIds(body: MessagesRequest): string[] {
	const last = lastUserMessage(body);
	if (!last || typeof last.content === "string") return [];
	const ids: string[] = [];
	for (const block of last.content) {
		if (block.type === "tool_result" && typeof block.tool_use_id === "string") ids.push(block.tool_use_id);
	}
	return ids;
}

/** True when the request comes from a sub-agent (Claude Code marks it in the first system block). */
export function isSubagentRequest(body: MessagesRequest): boolean {
	const sys = body.system;
	const first = Array.isArray(sys) ? sys[0]?.text : sys;
	return typeof first === "string" && first.includes("cc_is_subagent=true");
}

function matches(matcher: PromptMatcher, prompt: string, body: MessagesRequest): boolean {
	if (typeof matcher === "string") return prompt.includes(matcher);
	if (matcher instanceof RegExp) return matcher.test(prompt);
	return matcher(prompt, body);
}

function normalizeStep(step: StubStep): StubBlock[] {
	return typeof step === "string" ? [{ type: "text", text: step }] : step;
}

export function text(t: string): StubBlock {
	return { type: "text", text: t };
}
export function thinking(t: string): StubBlock {
	return { type: "thinking", thinking: t };
}
export function toolUse(name: string, input: Record<string, unknown>): StubBlock {
	return { type: "tool_use", name, input };
}

interface Decision {
	kind: "main" | "side" | "compact";
	prompt?: string;
	rule?: number;
	step?: number;
	blocks: StubBlock[];
}

export async function startStub(initial: StubScript = { rules: [] }): Promise<Stub> {
	let script = initial;
	const requests: RecordedRequest[] = [];
	let seq = 0;
	let toolSeq = 0;

	function decide(body: MessagesRequest): Decision {
		const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
		if (!hasTools) {
			const side = script.sideReply ?? "Scripted session";
			return { kind: "side", blocks: [text(typeof side === "function" ? side(body) : side)] };
		}
		const prompt = latestUserPrompt(body);
		const fallback: StubBlock[] = [text(script.fallbackReply ?? "Done.")];
		const last = lastUserMessage(body);
		const typed = last ? userPromptText(last.content) : undefined;
		// Compaction: Claude Code appends its summary instructions to the last user message
		// and retries unless the answer holds a <summary> block.
		if (typed !== undefined && COMPACT_RE.test(typed)) {
			return { kind: "compact", prompt, blocks: [text(script.compactReply ?? DEFAULT_COMPACT_REPLY)] };
		}
		// Continue the rule whose tool_use this tool_result answers.
		for (const id of latestToolResultIds(body)) {
			const m = TOOL_ID_RE.exec(id);
			if (!m) continue;
			const rule = Number(m[1]);
			const step = Number(m[2]) + 1;
			const r = script.rules[rule];
			const s = r?.steps[step];
			if (s === undefined) return { kind: "main", prompt, rule, blocks: fallback };
			return { kind: "main", prompt, rule, step, blocks: normalizeStep(s) };
		}
		// Only a turn the user typed starts a rule; a turn made only of system reminders
		// (e.g. a background agent's <task-notification>) gets the fallback reply.
		if (typed !== undefined && prompt !== undefined) {
			const rule = script.rules.findIndex((r) => matches(r.match, prompt, body));
			const first = script.rules[rule]?.steps[0];
			if (rule >= 0 && first !== undefined) return { kind: "main", prompt, rule, step: 0, blocks: normalizeStep(first) };
		}
		return { kind: "main", prompt, blocks: fallback };
	}

	/** Give tool_use blocks their ids (encoding rule and step). */
	function materialize(d: Decision): Array<Record<string, unknown>> {
		return d.blocks.map((b, i) => {
			if (b.type === "tool_use") {
				toolSeq++;
				const id = `toolu_e2e_r${d.rule ?? 0}s${d.step ?? 0}b${i}n${toolSeq}`;
				return { type: "tool_use", id, name: b.name, input: b.input };
			}
			if (b.type === "thinking") return { type: "thinking", thinking: b.thinking, signature: `sig_e2e_${seq}_${i}` };
			return { type: "text", text: b.text };
		});
	}

	function handleMessages(req: IncomingMessage, res: ServerResponse, body: MessagesRequest, rec: RecordedRequest): void {
		const d = decide(body);
		rec.kind = d.kind;
		const agentHeader = req.headers["x-claude-code-agent-id"];
		rec.agentId = typeof agentHeader === "string" ? agentHeader : undefined;
		rec.subagent = isSubagentRequest(body) || rec.agentId !== undefined;
		rec.prompt = d.prompt;
		rec.rule = d.rule;
		rec.step = d.step;
		rec.reply = d.blocks;
		const content = materialize(d);
		const stopReason = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
		const model = script.model ?? body.model ?? "claude-stub";
		const id = `msg_e2e_${String(rec.seq).padStart(4, "0")}`;
		const outputTokens = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
		const usage = { input_tokens: 100, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
		if (!body.stream) {
			res.writeHead(200, { "content-type": "application/json", "request-id": `req_e2e_${rec.seq}` });
			res.end(JSON.stringify({ id, type: "message", role: "assistant", model, content, stop_reason: stopReason, stop_sequence: null, usage }));
			return;
		}
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": `req_e2e_${rec.seq}` });
		const ev = (type: string, data: Record<string, unknown>): void => {
			res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
		};
		ev("message_start", {
			message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
		});
		content.forEach((b, index) => {
			if (b.type === "text") {
				ev("content_block_start", { index, content_block: { type: "text", text: "" } });
				for (const chunk of chunks(String(b.text), 64)) ev("content_block_delta", { index, delta: { type: "text_delta", text: chunk } });
			} else if (b.type === "thinking") {
				ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
				ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: b.thinking } });
				ev("content_block_delta", { index, delta: { type: "signature_delta", signature: b.signature } });
			} else {
				ev("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
				for (const chunk of chunks(JSON.stringify(b.input), 48)) {
					ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: chunk } });
				}
			}
			ev("content_block_stop", { index });
		});
		ev("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
		ev("message_stop", {});
		res.end();
	}

	const server: Server = createServer((req, res) => {
		readRequest(req, ["x-api-key", "authorization"], (body, headers) => {
			const rec: RecordedRequest = { seq: ++seq, method: req.method ?? "", url: req.url ?? "", headers, body, kind: "other" };
			requests.push(rec);
			const path = (req.url ?? "").split("?")[0];
			try {
				if (req.method === "POST" && path === "/v1/messages/count_tokens") {
					rec.kind = "count_tokens";
					res.writeHead(200, { "content-type": "application/json" });
					res.end(JSON.stringify({ input_tokens: 100 }));
				} else if (req.method === "POST" && path === "/v1/messages" && body && typeof body === "object") {
					handleMessages(req, res, body as MessagesRequest, rec);
				} else if (req.method === "HEAD" || (req.method === "GET" && path === "/")) {
					res.writeHead(200);
					res.end();
				} else {
					res.writeHead(404, { "content-type": "application/json" });
					res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `stub: no ${req.method} ${path}` } }));
				}
			} catch (err) {
				res.writeHead(500, { "content-type": "application/json" });
				res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(err) } }));
			}
		});
	});
	const { url, port, close } = await listenLocal(server);

	return {
		url,
		port,
		requests,
		mainRequests: () => requests.filter((r) => r.kind === "main"),
		setScript(s) {
			script = s;
		},
		clear() {
			requests.length = 0;
		},
		close,
	};
}

function chunks(s: string, size: number): string[] {
	// Split on code points so no surrogate pair is cut in two.
	const cps = Array.from(s);
	if (cps.length === 0) return [""];
	const out: string[] = [];
	for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(""));
	return out;
}
