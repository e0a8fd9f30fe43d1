import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { redactModelInPlace } from "../../../src/core/ingest/redact-model";
import { foldAiderLines } from "../../../src/core/transcript/aider-fold";
import { foldLines } from "../../../src/core/transcript/fold";
import { serializeSession } from "../../../src/core/transcript/session-model";
import { foldInPieces } from "../../fixtures/fold-pieces";
import { assistant, jsonl, system, text, toolResult, toolUse, userBlocks, userText } from "../../fixtures/lines";

// Built at run time: no secret-looking literal in the repository.
const TOKEN = `ghp${"_"}${"Zq8Xw2Vr5Ty7Ub3Nm9Lk1Jh4Gf6Ds0AbCdEf"}`;
const redact = (text: string) => createRedactor().redact(text);

describe("redactModelInPlace", () => {
	it("leaves no secret in what an Aider read keeps for the next one (the last line of output)", () => {
		const history = ["", "# aider chat started at 2026-11-20 10:00:00", "", "> Aider v0.86.1  ", "", "#### Fix the deploy script  ", "", "Done, see below.", "", "> Running ./deploy.sh  ", `> export GITHUB_TOKEN=${TOKEN}  `, ""].join("\n");
		const model = foldInPieces(foldAiderLines, "aider", history);
		expect(JSON.stringify(serializeSession(model))).toContain(TOKEN);
		redactModelInPlace(model, redact);
		expect(JSON.stringify(serializeSession(model))).not.toContain(TOKEN.slice(4, 14));
	});

	it("keeps a tool input's key `__proto__` a key (as a stored model gives it back, parsed): no field seems to be there that is not", () => {
		const model = foldInPieces(foldLines, "claude-code", jsonl([assistant(toolUse("toolu_1", "Read", { limit: 5 }), { messageId: "msg_1" })]));
		const call = model.events.flatMap((e) => (e.kind === "tool" ? [e.call] : []))[0]!;
		call.input = JSON.parse(`{"__proto__": {"file_path": "/etc/${TOKEN}"}, "limit": 5}`) as Record<string, unknown>;
		redactModelInPlace(model, redact);
		const after = model.events.flatMap((e) => (e.kind === "tool" ? [e.call] : []))[0]!;
		expect(after.input.file_path).toBeUndefined();
		expect(Object.keys(after.input).sort()).toEqual(["__proto__", "limit"]);
		expect(JSON.stringify(after.input)).not.toContain(TOKEN.slice(4, 14));
	});
});

describe("an event's texts", () => {
	it("are all redacted, the fields no rule names too: a compaction's trigger is the transcript's word", () => {
		const lines = jsonl([userText("Go on"), system("compact_boundary", { compactMetadata: { trigger: `manual ${TOKEN}`, preTokens: 1000 } })]);
		const model = foldInPieces(foldLines, "claude-code", lines);
		expect(model.events.find((e) => e.kind === "compaction")).toMatchObject({ trigger: `manual ${TOKEN}` });
		redactModelInPlace(model, redact);
		expect(JSON.stringify(serializeSession(model))).not.toContain(TOKEN.slice(4, 14));
		expect(model.events.find((e) => e.kind === "compaction")).toMatchObject({ kind: "compaction", trigger: "manual [redacted:github-token]" });
	});

	it("include a slash command's prompt, kept on the command", () => {
		const lines = jsonl([userText("<command-name>/publish</command-name>", { uuid: "c1" }), userBlocks([text(`Publish with ${TOKEN} as the token.`)], { isMeta: true, parentUuid: "c1" })]);
		const model = foldInPieces(foldLines, "claude-code", lines);
		expect(model.events[0]).toMatchObject({ expansion: `Publish with ${TOKEN} as the token.` });
		redactModelInPlace(model, redact);
		expect(JSON.stringify(serializeSession(model))).not.toContain(TOKEN.slice(4, 14));
	});
});

describe("the lines that could not be read", () => {
	it("are kept with their reason redacted: it names what the line gave (an opencode row's id)", async () => {
		const { createSession } = await import("../../../src/core/transcript/session-model");
		const { markMalformed } = await import("../../../src/core/transcript/model-building");
		const model = createSession("s");
		markMalformed(model, 4, `message msg_${TOKEN}: its data is not valid JSON`);
		redactModelInPlace(model, redact);
		expect(model.malformedLines).toEqual([{ line: 4, reason: "message msg_[redacted:github-token]: its data is not valid JSON" }]);
	});
});

describe("the ids records give", () => {
	it("are stored redacted when they hold a secret (session id, prompt uuid, message id, tool call id), and a real id is kept as it is", () => {
		const [other, call] = [`${TOKEN.slice(0, 10)}Yy${TOKEN.slice(12)}`, `${TOKEN.slice(0, 10)}Ww${TOKEN.slice(12)}`];
		const lines = jsonl([
			userText("List the files", { sessionId: TOKEN, uuid: other }),
			assistant(toolUse(call, "Bash", { command: "ls" }), { messageId: TOKEN }),
			toolResult(call, "a.txt"),
			assistant(text("One file."), { messageId: "msg_01abc" }),
		]);
		const model = foldInPieces(foldLines, "claude-code", lines);
		expect(model.events.find((e) => e.kind === "tool")).toMatchObject({ call: { result: { text: "a.txt" } } });
		redactModelInPlace(model, redact);
		const stored = JSON.stringify(serializeSession(model));
		for (const secret of [TOKEN, other, call]) expect(stored).not.toContain(secret.slice(4, 20));
		expect(stored).toContain("msg_01abc");
		expect(model.events.find((e) => e.kind === "tool")).toMatchObject({ call: { result: { text: "a.txt" } } });
	});
});

describe("the ids the model keeps beside its events", () => {
	it("are stored redacted: a summary's leafUuid, the Task call of an inline sidechain being read (attack round 48a, fuzzing)", () => {
		const task = `${TOKEN.slice(0, 10)}Tt${TOKEN.slice(12)}`;
		const lines = jsonl([
			{ type: "summary", summary: "Timeline filter work", leafUuid: TOKEN },
			userText("Find the slow query"),
			assistant(toolUse(task, "Task", { description: "look", prompt: "Find the slow query in the orders code" }), { messageId: "msg_01abc" }),
			userText("Find the slow query in the orders code", { isSidechain: true, parentUuid: null }),
		]);
		const model = foldInPieces(foldLines, "claude-code", lines);
		const before = JSON.stringify(serializeSession(model));
		expect(before).toContain(TOKEN);
		expect(before).toContain(task);
		redactModelInPlace(model, redact);
		const stored = JSON.stringify(serializeSession(model));
		for (const secret of [TOKEN, task]) expect(stored).not.toContain(secret.slice(4, 20));
		expect(model.summaries).toEqual([expect.objectContaining({ text: "Timeline filter work" })]);
	});

	it("keep a real id as it is: a summary still titles the session holding its leaf", () => {
		const leaf = "4ab7f788-23a2-4707-a5b6-e7034532fdbc";
		const model = foldInPieces(foldLines, "claude-code", jsonl([{ type: "summary", summary: "Cart fix", leafUuid: leaf }, userText("Fix the cart")]));
		redactModelInPlace(model, redact);
		expect(model.summaries).toEqual([{ leafUuid: leaf, text: "Cart fix" }]);
	});
});

describe("a tool's input", () => {
	it("redacts a value under a key that names a secret, as `\"KEY\": \"value\"` is: alone it has no shape to tell it by", async () => {
		const { createSession } = await import("../../../src/core/transcript/session-model");
		const model = createSession("s");
		const secret = "Zq8vK2mPx9Lw4";
		const input = { host: "db.internal", password: secret, api_key: `${secret}Ab`, client_secret: `${secret}Cd`, nested: { db_password: "hunter2x" }, port: 5432, authorName: "Ada Lovelace", tokens: 4096 };
		model.events = [{ kind: "tool", call: { id: "t1", name: "connect", input } }] as never;
		redactModelInPlace(model, redact);
		const out = (model.events[0] as unknown as { call: { input: Record<string, unknown> } }).call.input;
		expect(JSON.stringify(out)).not.toContain(secret);
		expect(JSON.stringify(out)).not.toContain("hunter2x");
		expect(out.password).toBe("[redacted:password]");
		expect(out.host).toBe("db.internal");
		expect(out.port).toBe(5432);
		// Keys that name no secret's value keep theirs.
		expect(out.authorName).toBe("Ada Lovelace");
		expect(out.tokens).toBe(4096);
	});
});
