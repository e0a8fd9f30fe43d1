import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { renderFact } from "../../../src/core/memory/fact-file";
import { followRedactedRenames, reredactInbox, redactedRenames, type RedactableFolder } from "../../../src/core/plan/redacted-names";
import { emptySyncState, type SessionRecord, type SyncState } from "../../../src/core/sync/sync-state";

/** Proposals and facts' vault files named and written while a pattern did not know their secret. */
const SECRET = "acmetok-Zq8Xw2-Qx7";
const redact = (text: string) => createRedactor({ extraPatterns: ["acmetok-[A-Za-z0-9-]+"] }).redact(text);
const KEY = "/home/dev/shop-api";
const FOLDER = "AI Memory/shop-api";
const proposal = (name: string, statement: string, extra = "") => renderFact({ name, description: statement, type: "feedback" }, `> ${statement}.\n\nSource: [[AI Conversations/shop-api/note|note]], prompt 1\n${extra}`);
const SECRET_NAME = "always-use-acmetok-zq8xw2-qx7-for-billing-api";
const REDACTED_NAME = "always-use-redacted-custom-for-billing-api";

function folder(inbox: Record<string, string>, extra: Partial<RedactableFolder> = {}): RedactableFolder {
	return { key: KEY, folder: FOLDER, facts: new Map(), inbox: new Map(Object.entries(inbox)), redact, ...extra };
}

function stateWith(facts: string[]): SyncState {
	const state = emptySyncState();
	state.sessions["/t/a.jsonl"] = { project: "shop-api", projectKey: KEY, facts } as unknown as SessionRecord;
	return state;
}

describe("redactedRenames", () => {
	it("renames a proposal named after a secret the rules now catch to the name its redacted statement gives, a taken name with -2", () => {
		const state = stateWith([SECRET_NAME]);
		const texts = { [`${SECRET_NAME}.md`]: proposal(SECRET_NAME, `Always use ${SECRET} for billing API`), [`${REDACTED_NAME}.md`]: proposal(REDACTED_NAME, "Always use [redacted:custom] for billing API") };
		expect(redactedRenames(state, [folder(texts)])).toEqual([{ project: KEY, from: `${FOLDER}/_inbox/${SECRET_NAME}.md`, to: `${FOLDER}/_inbox/${REDACTED_NAME}-2.md` }]);
	});

	it("leaves a proposal whose name a person chose, and one the rules find nothing in", () => {
		const state = stateWith([]);
		const texts = { "billing-key.md": proposal("billing-key", `Always use ${SECRET} for billing API`), "use-pnpm.md": proposal("use-pnpm", "Use pnpm") };
		expect(redactedRenames(state, [folder(texts)])).toEqual([]);
	});

	it("renames a Claude Code fact's vault file named after its unredacted name, its pair following", () => {
		const state = stateWith([]);
		state.memory[KEY] = { "project_ci.md": { vault: `ci-${SECRET.toLowerCase()}.md`, base: "" } };
		const claude = new Map([["project_ci.md", renderFact({ name: `ci ${SECRET}`, description: "The CI key", type: "project" }, "Body.\n")]]);
		const facts = new Map([[`ci-${SECRET.toLowerCase()}.md`, "x"]]);
		const renames = redactedRenames(state, [folder({}, { facts, claude })]);
		expect(renames).toEqual([{ project: KEY, from: `${FOLDER}/ci-${SECRET.toLowerCase()}.md`, to: `${FOLDER}/ci-redacted-custom.md`, claude: "project_ci.md" }]);
		followRedactedRenames(state, renames);
		expect(state.memory[KEY]["project_ci.md"]!.vault).toBe("ci-redacted-custom.md");
	});
});

describe("followRedactedRenames", () => {
	it("renames the proposal in its sessions' records (their notes link to it) and names those sessions", () => {
		const state = stateWith([SECRET_NAME, "use-pnpm"]);
		const relinked = followRedactedRenames(state, [{ project: KEY, from: `${FOLDER}/_inbox/${SECRET_NAME}.md`, to: `${FOLDER}/_inbox/${REDACTED_NAME}.md` }]);
		expect(relinked).toEqual(["/t/a.jsonl"]);
		expect(state.sessions["/t/a.jsonl"]!.facts).toEqual([REDACTED_NAME, "use-pnpm"]);
	});
});

describe("reredactInbox", () => {
	it("redacts a renamed proposal's text, what the person added too, and sets its name", () => {
		const before = proposal(SECRET_NAME, `Always use ${SECRET} for billing API`, `My note: ${SECRET} is the staging one.\n`);
		const writes = reredactInbox([folder({ [`${REDACTED_NAME}.md`]: before })]);
		expect(writes).toHaveLength(1);
		const write = writes[0]!;
		expect(write.kind === "note" && write.path).toBe(`${FOLDER}/_inbox/${REDACTED_NAME}.md`);
		const after = write.kind === "note" ? write.text! : "";
		expect(after).toContain(`name: ${REDACTED_NAME}\n`);
		expect(after).toContain("My note: [redacted:custom] is the staging one.");
		expect(after).not.toMatch(/zq8xw2/i);
		expect(write.kind === "note" && write.expected).toBe(before);
	});

	it("leaves the text of a proposal whose rename was not made to the sync that makes it", () => {
		expect(reredactInbox([folder({ [`${SECRET_NAME}.md`]: proposal(SECRET_NAME, `Always use ${SECRET} for billing API`) })])).toEqual([]);
	});

	it("changes nothing the rules find nothing in", () => {
		expect(reredactInbox([folder({ "use-pnpm.md": proposal("use-pnpm", "Use pnpm") })])).toEqual([]);
	});
});
