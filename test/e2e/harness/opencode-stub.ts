/**
 * A scripted local stand-in for an OpenAI-compatible Chat Completions API, good enough for the
 * real opencode CLI (`opencode run`, provider `@ai-sdk/openai-compatible`, which the binary
 * bundles) to run whole sessions against it.
 *
 * - `POST /v1/chat/completions` answers (`stream: true`) with SSE `chat.completion.chunk`s: a role
 *   chunk, `delta.reasoning_content` and `delta.content` pieces and/or `delta.tool_calls`, a chunk
 *   with `finish_reason`, a usage chunk (`choices: []`), then `data: [DONE]`.
 * - `{type: "error"}` answers with an HTTP error instead (400 is not retried by opencode).
 * - Anything else gets a 404 JSON answer (and is recorded: 1.18.33 makes no other request).
 *
 * Scripting mirrors `stub-server.ts`: a rule matches the text of the latest user message and has
 * steps, each one reply; when the latest message is a tool result for a call the stub issued, the
 * next step of that rule answers. Call ids encode rule and step (`call_stub_r<rule>s<step>n<seq>`),
 * so the stub keeps no per-conversation state. opencode's title agent ("title generator") and its
 * compaction agent ("context summarization agent") are answered apart (`kind` says which).
 *
 * Token counts are made up but checkable: prompt tokens = JSON length of `messages` / 4, 64 of them
 * reported as cached, completion tokens from the reply's length.
 */
import { createServer, type ServerResponse } from "node:http";
import { listenLocal, readRequest } from "./stub-http.js";

export type OpencodeStubItem =
	| { type: "text"; text: string }
	| { type: "reasoning"; text: string }
	| { type: "call"; name: string; arguments: Record<string, unknown> }
	| { type: "error"; status: number; message: string };

/** One reply: a list of output items (a bare string is one text item). */
export type OpencodeStubStep = OpencodeStubItem[] | string;

export interface OpencodeStubRule {
	match: string | RegExp;
	steps: OpencodeStubStep[];
	/** The rule stops matching after its first step was answered this many times. */
	times?: number;
}

export interface OpencodeStubScript {
	rules: OpencodeStubRule[];
	/** Reply when no rule matches or a rule has run out of steps. Default: "Done." */
	fallbackReply?: string;
	/** The title agent's answer. Default: "Stub session title". */
	titleReply?: string;
	compactionReply?: string;
}

export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages?: Array<{ role?: string; content?: unknown; tool_call_id?: string }>;
	tools?: unknown[];
	[key: string]: unknown;
}

export interface OpencodeRecordedRequest {
	seq: number;
	method: string;
	url: string;
	/** Headers minus the API key; `x-session-id` is the opencode session. */
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
	/** For chat completions: `main`, `title`, `compaction` (undefined: a 404). */
	kind?: "main" | "title" | "compaction";
	prompt?: string;
	rule?: number;
	step?: number;
}

export interface OpencodeStub {
	/** e.g. `http://127.0.0.1:41234`; the provider's `baseURL` is this plus `/v1`. */
	url: string;
	port: number;
	requests: OpencodeRecordedRequest[];
	setScript(script: OpencodeStubScript): void;
	close(): Promise<void>;
}

const CALL_RE = /^call_stub_r(\d+)s(\d+)n\d+$/;

export function opencodeText(text: string): OpencodeStubItem {
	return { type: "text", text };
}
export function opencodeCall(name: string, args: Record<string, unknown>): OpencodeStubItem {
	return { type: "call", name, arguments: args };
}

export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.flatMap((c: unknown) => (c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string" ? [(c as { text: string }).text] : [])).join("\n");
}

/** The system prompt opencode sent (where it puts AGENTS.md: `Instructions from: <path>` and the file). */
export function systemTextOf(body: unknown): string {
	const messages = (body as ChatRequest | null)?.messages ?? [];
	return messages.filter((m) => m.role === "system").map((m) => contentText(m.content)).join("\n");
}

function latestUserText(body: ChatRequest): string {
	const messages = body.messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === "user") return contentText(messages[i]!.content);
	return "";
}

function kindOf(body: ChatRequest): "main" | "title" | "compaction" {
	const tools = Array.isArray(body.tools) && body.tools.length > 0;
	const system = systemTextOf(body);
	if (!tools && /context summarization agent/i.test(system)) return "compaction";
	if (!tools && /title generator|generate a (short |brief )?title/i.test(system)) return "title";
	return "main";
}

export async function startOpencodeStub(initial: OpencodeStubScript = { rules: [] }): Promise<OpencodeStub> {
	let script = initial;
	let seq = 0;
	let callSeq = 0;
	let respSeq = 0;
	const used = new Map<number, number>();
	const requests: OpencodeRecordedRequest[] = [];

	const decide = (body: ChatRequest): { prompt?: string; rule?: number; step?: number; items: OpencodeStubItem[] } => {
		const stepOf = (rule: number, step: number): OpencodeStubItem[] | undefined => {
			const s = script.rules[rule]?.steps[step];
			return s === undefined ? undefined : typeof s === "string" ? [opencodeText(s)] : s;
		};
		const fallback = { items: [opencodeText(script.fallbackReply ?? "Done.")] };
		const last = body.messages?.at(-1);
		const m = last?.role === "tool" && typeof last.tool_call_id === "string" ? CALL_RE.exec(last.tool_call_id) : null;
		if (m) {
			const rule = Number(m[1]);
			const step = Number(m[2]) + 1;
			const items = stepOf(rule, step);
			return items ? { rule, step, items } : fallback;
		}
		const prompt = latestUserText(body);
		for (let rule = 0; rule < script.rules.length; rule++) {
			const r = script.rules[rule]!;
			const matches = typeof r.match === "string" ? prompt.includes(r.match) : r.match.test(prompt);
			if (!matches || (r.times !== undefined && (used.get(rule) ?? 0) >= r.times)) continue;
			used.set(rule, (used.get(rule) ?? 0) + 1);
			return { prompt, rule, step: 0, items: stepOf(rule, 0) ?? [] };
		}
		return { prompt, ...fallback };
	};

	const server = createServer((req, res) => {
		readRequest(req, ["authorization"], (body, headers) => {
			const rec: OpencodeRecordedRequest = { seq: ++seq, method: req.method ?? "", url: req.url ?? "", headers, body };
			requests.push(rec);
			const path = (req.url ?? "").split("?")[0] ?? "";
			if (req.method !== "POST" || !path.endsWith("/chat/completions") || !body || typeof body !== "object") {
				res.writeHead(404, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: `stub: no route for ${req.method} ${path}`, type: "not_found" } }));
				return;
			}
			const request = body as ChatRequest;
			rec.kind = kindOf(request);
			const d =
				rec.kind === "title" ? { items: [opencodeText(script.titleReply ?? "Stub session title")] }
				: rec.kind === "compaction" ? { items: [opencodeText(script.compactionReply ?? "## Summary\n\nNothing else happened yet.")] }
				: decide(request);
			Object.assign(rec, { prompt: "prompt" in d ? d.prompt : undefined, rule: "rule" in d ? d.rule : undefined, step: "step" in d ? d.step : undefined });
			const items = d.items.map((it) => (it.type === "call" ? { ...it, id: `call_stub_r${"rule" in d ? (d.rule ?? 0) : 0}s${"step" in d ? (d.step ?? 0) : 0}n${++callSeq}` } : it));
			answer(res, request, items, `chatcmpl-stub-${++respSeq}`);
		});
	});
	const { url, port, close } = await listenLocal(server);
	return {
		url,
		port,
		requests,
		setScript(next) {
			script = next;
			used.clear();
		},
		close,
	};
}

type Answered = OpencodeStubItem & { id?: string };

function answer(res: ServerResponse, body: ChatRequest, items: Answered[], id: string): void {
	const error = items.find((i) => i.type === "error");
	if (error && error.type === "error") {
		res.writeHead(error.status, { "content-type": "application/json" });
		res.end(JSON.stringify({ error: { message: error.message, type: "invalid_request_error", code: null } }));
		return;
	}
	const calls = items.filter((i): i is Extract<Answered, { type: "call" }> => i.type === "call");
	const finish_reason = calls.length > 0 ? "tool_calls" : "stop";
	const promptTokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
	let completion = 0;
	let reasoning = 0;
	for (const it of items) {
		if (it.type === "text") completion += Math.ceil(it.text.length / 4);
		else if (it.type === "reasoning") reasoning += Math.ceil(it.text.length / 4);
		else if (it.type === "call") completion += Math.ceil(JSON.stringify(it.arguments).length / 4);
	}
	const cached = promptTokens > 64 ? 64 : 0;
	const usage = {
		prompt_tokens: promptTokens,
		completion_tokens: completion + reasoning,
		total_tokens: promptTokens + completion + reasoning,
		prompt_tokens_details: { cached_tokens: cached },
		completion_tokens_details: { reasoning_tokens: reasoning },
	};
	const model = body.model ?? "m";
	const created = Math.floor(Date.now() / 1000);
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
	const send = (choices: unknown[], extra: Record<string, unknown> = {}) => res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`);
	const delta = (d: Record<string, unknown>) => send([{ index: 0, delta: d, finish_reason: null }]);
	delta({ role: "assistant", content: "" });
	let toolIndex = 0;
	for (const it of items) {
		if (it.type === "reasoning") for (const piece of it.text.match(/.{1,16}/gs) ?? [""]) delta({ reasoning_content: piece });
		else if (it.type === "text") for (const piece of it.text.match(/.{1,12}/gs) ?? [""]) delta({ content: piece });
		else if (it.type === "call") {
			const args = JSON.stringify(it.arguments);
			const index = toolIndex++;
			const half = Math.ceil(args.length / 2);
			delta({ tool_calls: [{ index, id: it.id, type: "function", function: { name: it.name, arguments: "" } }] });
			delta({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
			delta({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
		}
	}
	send([{ index: 0, delta: {}, finish_reason }]);
	send([], { usage });
	res.write("data: [DONE]\n\n");
	res.end();
}
