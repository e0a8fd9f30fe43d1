/**
 * A scripted local stand-in for the OpenAI Responses API, good enough for the real Codex CLI
 * (`codex exec`) to run whole sessions against it.
 *
 * - `POST /v1/responses` (`stream: true`) answers with the three SSE events Codex needs:
 *   `response.created`, one `response.output_item.done` per output item (an assistant `message`
 *   with `output_text`, or a `function_call`), and `response.completed` with usage.
 * - Anything else gets a 404 JSON answer (and is recorded: 0.171.0 makes no other request).
 *
 * Scripting mirrors `stub-server.ts`: a rule matches the text of the latest typed user prompt
 * (the AGENTS.md and `<environment_context>` messages Codex injects as role `user` are skipped)
 * and has steps, each one reply. When the latest input item is the output of a call the stub
 * issued, the next step of that rule answers. call_ids encode rule and step
 * (`call_e2e_r<rule>s<step>n<seq>`), so the stub keeps no per-conversation state.
 */
import { createServer } from "node:http";
import { listenLocal, readRequest } from "./stub-http.js";

export type CodexStubItem =
	| { type: "text"; text: string }
	/** A shell command, sent as whichever shell function the request offers (`exec_command` with gpt-5.5). */
	| { type: "shell"; cmd: string }
	| { type: "call"; name: string; arguments: Record<string, unknown> };

/** One reply: a list of output items (a bare string is one text item). */
export type CodexStubStep = CodexStubItem[] | string;

export interface CodexStubRule {
	match: string | RegExp;
	steps: CodexStubStep[];
}

export interface CodexStubScript {
	rules: CodexStubRule[];
	/** Reply when no rule matches or a rule has run out of steps. Default: "Done." */
	fallbackReply?: string;
}

/** The subset of a Responses API request body the stub looks at. */
export interface ResponsesRequest {
	model?: string;
	input?: Array<Record<string, unknown>>;
	tools?: Array<{ type?: string; name?: string }>;
	[key: string]: unknown;
}

export interface CodexRecordedRequest {
	seq: number;
	method: string;
	url: string;
	/** Headers minus the API key. `session-id` is the Codex thread (= session) id. */
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body, or the raw text if it was not JSON, or null. */
	body: unknown;
	/** For `/v1/responses`: the typed prompt matched, which rule/step answered (undefined = fallback), and the items sent. */
	prompt?: string;
	rule?: number;
	step?: number;
	reply?: Array<Record<string, unknown>>;
}

export interface CodexStub {
	/** e.g. `http://127.0.0.1:41234`; the provider's `base_url` is this plus `/v1`. */
	url: string;
	port: number;
	requests: CodexRecordedRequest[];
	/** The `POST /v1/responses` requests one Codex session sent (by its `session-id` header). */
	requestsOf(sessionId: string | undefined): CodexRecordedRequest[];
	setScript(script: CodexStubScript): void;
	clear(): void;
	close(): Promise<void>;
}

const CALL_RE = /^call_e2e_r(\d+)s(\d+)n\d+$/;

export function codexText(text: string): CodexStubItem {
	return { type: "text", text };
}
export function codexShell(cmd: string): CodexStubItem {
	return { type: "shell", cmd };
}

function partsText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.flatMap((c: unknown) => (c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string" ? [(c as { text: string }).text] : [])).join("\n");
}

/** Context Codex sends as role `user` messages that nobody typed. */
function isInjected(text: string): boolean {
	return /^\s*(# AGENTS\.md instructions|<environment_context|<user_instructions|<INSTRUCTIONS>|<skills|<turn_aborted|<permissions)/.test(text);
}

/** The latest user message a person typed. */
export function latestCodexPrompt(body: ResponsesRequest): string | undefined {
	const input = body.input ?? [];
	for (let i = input.length - 1; i >= 0; i--) {
		const item = input[i];
		if (!item || item.role !== "user") continue;
		const text = partsText(item.content);
		if (text && !isInjected(text)) return text;
	}
	return undefined;
}

/** The text of the AGENTS.md message Codex sent (`# AGENTS.md instructions for <dir>` …), if any. */
export function agentsMdInstructions(body: unknown): string | undefined {
	const input = (body as ResponsesRequest | null)?.input ?? [];
	for (const item of input) {
		if (item.role !== "user" || !Array.isArray(item.content)) continue;
		for (const part of item.content as Array<{ text?: unknown }>) {
			if (typeof part.text === "string" && part.text.startsWith("# AGENTS.md instructions for ")) return part.text;
		}
	}
	return undefined;
}

function offeredTools(body: ResponsesRequest): Set<string> {
	const names = new Set<string>();
	const add = (t: unknown): void => {
		if (!t || typeof t !== "object") return;
		const tool = t as { type?: string; name?: string; tools?: unknown[] };
		if (tool.type === "namespace") (tool.tools ?? []).forEach(add);
		else names.add(`${tool.type ?? ""}:${tool.name ?? ""}`);
	};
	(body.tools ?? []).forEach(add);
	// Code-mode models (the 0.171.0 default) get their tools as an `additional_tools` input item.
	for (const item of body.input ?? []) if (item.type === "additional_tools") ((item.tools as unknown[]) ?? []).forEach(add);
	return names;
}

/** `{type: "shell"}` as the shell function this request offers; a text item saying so when none is. */
function resolveShell(item: CodexStubItem, body: ResponsesRequest): CodexStubItem {
	if (item.type !== "shell") return item;
	const tools = offeredTools(body);
	if (tools.has("function:exec_command")) return { type: "call", name: "exec_command", arguments: { cmd: item.cmd, yield_time_ms: 1000 } };
	if (tools.has("function:shell_command")) return { type: "call", name: "shell_command", arguments: { command: item.cmd } };
	if (tools.has("function:shell")) return { type: "call", name: "shell", arguments: { command: ["bash", "-lc", item.cmd] } };
	return { type: "text", text: `(stub: no shell function offered; tools: ${[...tools].join(", ")}; set model = "gpt-5.5")` };
}


export async function startCodexStub(initial: CodexStubScript = { rules: [] }): Promise<CodexStub> {
	let script = initial;
	let seq = 0;
	let callSeq = 0;
	let respSeq = 0;
	const requests: CodexRecordedRequest[] = [];

	const decide = (body: ResponsesRequest): { prompt?: string; rule?: number; step?: number; items: CodexStubItem[] } => {
		const steps = (rule: number, step: number) => {
			const s = script.rules[rule]?.steps[step];
			return s === undefined ? undefined : typeof s === "string" ? [codexText(s)] : s;
		};
		const last = body.input?.at(-1);
		const m = last && last.type === "function_call_output" && typeof last.call_id === "string" ? CALL_RE.exec(last.call_id) : null;
		if (m) {
			const rule = Number(m[1]);
			const step = Number(m[2]) + 1;
			const items = steps(rule, step);
			if (items) return { rule, step, items };
			return { items: [codexText(script.fallbackReply ?? "Done.")] };
		}
		const prompt = latestCodexPrompt(body) ?? "";
		const at = script.rules.findIndex((r) => (typeof r.match === "string" ? prompt.includes(r.match) : r.match.test(prompt)));
		if (at >= 0) return { prompt, rule: at, step: 0, items: steps(at, 0) ?? [] };
		return { prompt, items: [codexText(script.fallbackReply ?? "Done.")] };
	};

	const server = createServer((req, res) => {
		readRequest(req, ["authorization"], (body, headers, raw) => {
			const rec: CodexRecordedRequest = { seq: ++seq, method: req.method ?? "", url: req.url ?? "", headers, body };
			requests.push(rec);
			const path = (req.url ?? "").split("?")[0] ?? "";
			if (req.method !== "POST" || !path.endsWith("/responses") || !body || typeof body !== "object") {
				res.writeHead(404, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: `stub: no route for ${req.method} ${path}`, type: "not_found" } }));
				return;
			}
			const request = body as ResponsesRequest;
			const d = decide(request);
			Object.assign(rec, { prompt: d.prompt, rule: d.rule, step: d.step });

			const respId = `resp_e2e_${++respSeq}`;
			const base = { id: respId, object: "response", created_at: Math.floor(Date.now() / 1000), model: request.model ?? "gpt-stub", status: "in_progress", output: [] as unknown[] };
			const output = d.items
				.map((spec) => resolveShell(spec, request))
				.map((spec, i): Record<string, unknown> => {
					if (spec.type === "call") {
						const call_id = `call_e2e_r${d.rule ?? 0}s${d.step ?? 0}n${++callSeq}`;
						return { id: `fc_${respId}_${i}`, type: "function_call", status: "completed", call_id, name: spec.name, arguments: JSON.stringify(spec.arguments) };
					}
					const text = spec.type === "text" ? spec.text : "";
					return { id: `msg_${respId}_${i}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
				});
			rec.reply = output;
			// Made-up token counts (about 4 characters a token), so the session has usage like a real one.
			const inputTokens = Math.ceil(raw.length / 4);
			const outputTokens = Math.ceil(JSON.stringify(output).length / 4);
			const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens };
			const send = (type: string, data: Record<string, unknown>): void => {
				res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
			};
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			send("response.created", { response: base });
			output.forEach((item, output_index) => send("response.output_item.done", { output_index, item }));
			send("response.completed", { response: { ...base, status: "completed", output, usage } });
			res.end();
		});
	});
	const { url, port, close } = await listenLocal(server);
	return {
		url,
		port,
		requests,
		requestsOf: (sessionId) => requests.filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith("/responses") && sessionId !== undefined && r.headers["session-id"] === sessionId),
		setScript(next) {
			script = next;
		},
		clear() {
			requests.length = 0;
		},
		close,
	};
}
