/**
 * A scripted local stand-in for the Google Generative Language API (v1beta), good enough for the
 * real Gemini CLI (`gemini -p …`) to run whole sessions against it (`GOOGLE_GEMINI_BASE_URL`).
 *
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`: main turns. SSE `data: <GenerateContentResponse>`
 *   chunks, one per part, with `finishReason: "STOP"` and `usageMetadata` on the last one.
 * - `POST /v1beta/models/<model>:generateContent`: side calls. A request asking for JSON (the
 *   model-routing classifier: `{complexity_reasoning, complexity_score}`) gets JSON that fits its
 *   schema; one without tools (the session summary) gets `summaryReply`.
 * - Anything else gets a 404 JSON answer (and is recorded: 0.61.0 makes no other request).
 *
 * Scripting mirrors `codex-stub.ts`, but stateless the Gemini way: the latest user Content with typed
 * text (its last text part; the `<session_context>` part Gemini puts first is skipped) is matched
 * against the rules, and the number of model Contents after it is the step. So a tool round-trip
 * needs no functionCall ids (the public API sends none; the CLI makes them up).
 */
import { createServer } from "node:http";
import { listenLocal, readRequest } from "./stub-http.js";

/** One Gemini `Part` as the stub sends it. */
export type GeminiPart = { text: string; thought?: boolean } | { functionCall: { name: string; args: Record<string, unknown> } };

/** One reply: a list of parts (a bare string is one text part). */
export type GeminiStubStep = GeminiPart[] | string;

export interface GeminiStubRule {
	match: string | RegExp;
	steps: GeminiStubStep[];
}

export interface GeminiStubScript {
	rules: GeminiStubRule[];
	/** Reply when no rule matches or a rule has run out of steps. Default: "Done." */
	fallbackReply?: string;
	/** Reply to requests without tools (the session summary). Default: "Scripted session summary". */
	summaryReply?: string;
}

export interface GeminiContent {
	role?: string;
	parts?: Array<Record<string, unknown>>;
}

/** The subset of a GenerateContent request body the stub looks at. */
export interface GenerateContentRequest {
	contents?: GeminiContent[];
	systemInstruction?: unknown;
	tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
	generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown; responseSchema?: unknown; [key: string]: unknown };
	[key: string]: unknown;
}

export interface GeminiRecordedRequest {
	seq: number;
	method: string;
	url: string;
	/** `streamGenerateContent` / `generateContent` / … (from the URL); the model from the URL. */
	action?: string;
	model?: string;
	/** Headers minus the API key. */
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body, or the raw text if it was not JSON, or null. */
	body: unknown;
	/** `main` = went through the rules; `router` = asked for JSON; `summary` = no tools. */
	kind?: "main" | "router" | "summary";
	prompt?: string;
	rule?: number;
	step?: number;
	reply?: GeminiPart[];
}

export interface GeminiStub {
	/** e.g. `http://127.0.0.1:41234`: the value of `GOOGLE_GEMINI_BASE_URL`. */
	url: string;
	port: number;
	requests: GeminiRecordedRequest[];
	/** The requests that went through the rules (main turns). */
	mainRequests(): GeminiRecordedRequest[];
	setScript(script: GeminiStubScript): void;
	clear(): void;
	close(): Promise<void>;
}

export function geminiText(text: string): GeminiPart {
	return { text };
}
export function geminiCall(name: string, args: Record<string, unknown>): GeminiPart {
	return { functionCall: { name, args } };
}

/** The last non-thought text part of a Content (the prompt itself, not the `<session_context>` part). */
function promptText(content: GeminiContent | undefined): string {
	const texts = (content?.parts ?? []).filter((p) => typeof p.text === "string" && !p.thought).map((p) => p.text as string);
	const last = texts.at(-1) ?? "";
	return last.startsWith("<session_context>") ? "" : last;
}

/** Every string in a request's `contents` and `systemInstruction`, joined by newlines. */
export function geminiRequestText(body: unknown): string {
	const out: string[] = [];
	const walk = (v: unknown): void => {
		if (typeof v === "string") out.push(v);
		else if (Array.isArray(v)) v.forEach(walk);
		else if (v && typeof v === "object") Object.values(v).forEach(walk);
	};
	const b = body as GenerateContentRequest | null;
	walk(b?.contents);
	walk(b?.systemInstruction);
	return out.join("\n");
}

/** The `<session_context>` text of a request (where GEMINI.md reaches the model), if any. */
export function sessionContextOf(body: unknown): string | undefined {
	for (const c of (body as GenerateContentRequest | null)?.contents ?? []) {
		for (const p of c.parts ?? []) if (typeof p.text === "string" && p.text.startsWith("<session_context>")) return p.text;
	}
	return undefined;
}

/** JSON that fits the schema a side request asks for. */
function sideJson(body: GenerateContentRequest): Record<string, unknown> {
	const schema = JSON.stringify(body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema ?? {});
	const out: Record<string, unknown> = {};
	if (schema.includes("complexity")) Object.assign(out, { complexity_reasoning: "stub", complexity_score: 1 });
	if (schema.includes("next_speaker")) Object.assign(out, { reasoning: "stub", next_speaker: "user" });
	if (schema.includes("model_choice")) Object.assign(out, { reasoning: "stub", model_choice: "flash" });
	if (schema.includes("unproductive_state_confidence")) Object.assign(out, { unproductive_state_analysis: "stub", unproductive_state_confidence: 0 });
	if (Object.keys(out).length === 0) out.reasoning = "stub";
	return out;
}


export async function startGeminiStub(initial: GeminiStubScript = { rules: [] }): Promise<GeminiStub> {
	let script = initial;
	let seq = 0;
	const requests: GeminiRecordedRequest[] = [];

	const decide = (body: GenerateContentRequest): Pick<GeminiRecordedRequest, "kind" | "prompt" | "rule" | "step"> & { parts: GeminiPart[] } => {
		const gc = body.generationConfig ?? {};
		if (gc.responseMimeType === "application/json" || gc.responseJsonSchema || gc.responseSchema) return { kind: "router", parts: [geminiText(JSON.stringify(sideJson(body)))] };
		const hasTools = (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);
		if (!hasTools) return { kind: "summary", parts: [geminiText(script.summaryReply ?? "Scripted session summary")] };
		const contents = body.contents ?? [];
		let at = -1;
		for (let i = contents.length - 1; i >= 0; i--) {
			if (contents[i]!.role === "user" && promptText(contents[i])) {
				at = i;
				break;
			}
		}
		const prompt = at >= 0 ? promptText(contents[at]) : "";
		const step = contents.slice(at + 1).filter((c) => c.role === "model").length;
		const fallback = { kind: "main" as const, prompt, parts: [geminiText(script.fallbackReply ?? "Done.")] };
		const rule = script.rules.findIndex((r) => (typeof r.match === "string" ? prompt.includes(r.match) : r.match.test(prompt)));
		if (rule < 0) return fallback;
		const s = script.rules[rule]!.steps[step];
		if (s === undefined) return { ...fallback, rule, step };
		return { kind: "main", prompt, rule, step, parts: typeof s === "string" ? [geminiText(s)] : s };
	};

	const server = createServer((req, res) => {
		readRequest(req, ["x-goog-api-key", "authorization"], (body, headers, raw) => {
			void (async () => {
				const path = (req.url ?? "").split("?")[0] ?? "";
				const m = /\/models\/([^/:]+):(\w+)$/.exec(path);
				const rec: GeminiRecordedRequest = { seq: ++seq, method: req.method ?? "", url: req.url ?? "", action: m?.[2], model: m?.[1], headers, body };
				requests.push(rec);
				if (req.method !== "POST" || !m || (rec.action !== "streamGenerateContent" && rec.action !== "generateContent") || !body || typeof body !== "object") {
					res.writeHead(404, { "content-type": "application/json" });
					res.end(JSON.stringify({ error: { code: 404, message: `stub: no route for ${req.method} ${path}`, status: "NOT_FOUND" } }));
					return;
				}
				const d = decide(body as GenerateContentRequest);
				// Gemini 3 models attach a thought signature to function calls; any opaque string works.
				const parts = d.parts.map((p) => ("functionCall" in p ? { ...p, thoughtSignature: "c3R1Yi1zaWduYXR1cmU=" } : p));
				Object.assign(rec, { kind: d.kind, prompt: d.prompt, rule: d.rule, step: d.step, reply: parts });
				// Made-up token counts (about 4 characters a token), so the session has usage like a real one.
				const inTok = Math.ceil(raw.length / 4);
				const outTok = Math.max(1, Math.ceil(JSON.stringify(parts).length / 4));
				const usage = { promptTokenCount: inTok, candidatesTokenCount: outTok, totalTokenCount: inTok + outTok, promptTokensDetails: [{ modality: "TEXT", tokenCount: inTok }] };
				const responseId = `stub-resp-${rec.seq}`;
				if (rec.action === "generateContent") {
					res.writeHead(200, { "content-type": "application/json" });
					res.end(JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: usage, modelVersion: rec.model, responseId }));
					return;
				}
				res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
				for (let i = 0; i < parts.length; i++) {
					const last = i === parts.length - 1;
					const chunk = {
						candidates: [{ content: { role: "model", parts: [parts[i]] }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
						usageMetadata: last ? usage : { promptTokenCount: inTok, totalTokenCount: inTok },
						modelVersion: rec.model,
						responseId,
					};
					res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
					await new Promise((r) => setTimeout(r, 2));
				}
				res.end();
			})();
		});
	});
	const { url, port, close } = await listenLocal(server);
	return {
		url,
		port,
		requests,
		mainRequests: () => requests.filter((r) => r.kind === "main"),
		setScript(next) {
			script = next;
		},
		clear() {
			requests.length = 0;
		},
		close,
	};
}
