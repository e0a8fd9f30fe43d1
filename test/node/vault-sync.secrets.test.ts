import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRedactor } from "../../src/core/digest/redact";
import { withoutFlatProperties } from "../../src/core/memory/fact-properties";
import { renderFact } from "../../src/core/memory/fact-file";
import { DEFAULT_PROJECT, migrateSettings, type Settings } from "../../src/core/settings";
import { claudeMemoryDir } from "../../src/node/claude-memory-dir";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, toolResult, toolUse, userText } from "../fixtures/lines";

/** Secrets planted in every place a transcript or a memory file can carry them. */
const SECRETS = {
	github: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
	aws: "AKIAZ3MHQ5LTV7XQW2PA",
	slack: "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
	anthropic: `sk-ant-api03-${"B".repeat(90)}`,
	password: "hunter2-Correct-Horse",
};
const ID = "aaaaaaaa-1111-4000-8000-000000000001";
let root: string;
let projects: string;
let projectPath: string;
let memoryDir: string;
let notes: MemoryNotes;

const settings = (): Settings => ({ ...migrateSettings({}).settings, projects: [{ path: projectPath, ...DEFAULT_PROJECT }] });
const sync = () => new VaultSync(projects, join(root, "state"), notes).run(settings());
/** As Claude Code keeps it: `metadata.type` only (renderFact writes the vault's form, with a flat copy). */
const FACT = () => withoutFlatProperties(renderFact({ name: "deploy-keys", description: `Deploy with ${SECRETS.anthropic}`, type: "project" }, `password: ${SECRETS.password} (staging)\nCI uses ${SECRETS.github}.\nDeploys go through CI.\n`));

async function everythingWritten(): Promise<string> {
	const state = join(root, "state");
	const files = (await readdir(state, { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
	const texts = await Promise.all(files.map((d) => readFile(join(d.parentPath, d.name), "utf8")));
	return [...notes.files.values(), ...texts, await readFile(join(projectPath, "CLAUDE.md"), "utf8")].join("\n");
}

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "vault-secrets-"));
	projects = join(root, "claude", "projects");
	projectPath = join(root, "shop-api");
	await mkdir(projectPath);
	const folder = join(projects, "-home-dev-shop-api");
	await mkdir(join(folder, ID, "subagents"), { recursive: true });
	const env = { sessionId: ID, cwd: projectPath, gitBranch: `deploy/${SECRETS.github}` };
	await writeFile(
		join(folder, `${ID}.jsonl`),
		jsonl([
			userText("Check the deploy keys", env),
			assistant(toolUse("toolu_1", "Read", { file_path: `${projectPath}/keys/${SECRETS.aws}.pem` }), { ...env, messageId: "msg_1" }),
			toolResult("toolu_1", "(key)", env),
			assistant(toolUse("toolu_2", "Agent", { description: "Webhook", prompt: "Check the webhook", subagent_type: "Explore" }), { ...env, messageId: "msg_2" }),
			toolResult("toolu_2", "done", { ...env, toolUseResult: { status: "completed", agentId: "a1234567890abcdef" } }),
			// A tool's name and its input's keys are the transcript's too (an MCP tool's input is any JSON).
			assistant(toolUse("toolu_3", `mcp__deploy.${SECRETS.aws}`, { headers: { [SECRETS.anthropic]: "set" } }), { ...env, messageId: "msg_4" }),
			toolResult("toolu_3", "ok", env),
			// So are the names it reports: a model, the client's version, a record type this version does not know.
			assistant(text("Noted."), { ...env, messageId: "msg_5", model: `proxy ${SECRETS.slack}`, version: `2.1 ${SECRETS.github}` }),
			{ type: `x ${SECRETS.anthropic}`, sessionId: ID },
			assistant(text("Checked."), { ...env, messageId: "msg_3" }),
		]),
	);
	await writeFile(join(folder, ID, "subagents", "agent-a1234567890abcdef.jsonl"), jsonl([userText("Check the webhook", { ...env, isSidechain: true, agentId: "a1234567890abcdef" })]));
	await writeFile(join(folder, ID, "subagents", "agent-a1234567890abcdef.meta.json"), JSON.stringify({ agentType: "Explore", description: `Check the ${SECRETS.slack} webhook` }));
	memoryDir = claudeMemoryDir(projectPath, { claudeDir: join(root, "claude"), settings: undefined })!;
	await mkdir(memoryDir, { recursive: true });
	await writeFile(join(memoryDir, "project_deploy.md"), FACT());
	notes = new MemoryNotes();
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("VaultSync and secrets", () => {
	it("the planted secrets are real secrets to the redactor", () => {
		const redactor = createRedactor();
		for (const secret of Object.values(SECRETS)) expect(redactor.redact(`token: ${secret}`)).not.toContain(secret);
	});

	it("no secret of a transcript or of Claude Code's memory reaches the vault, the state, the hook context or CLAUDE.md", async () => {
		const report = await sync();
		expect(report.errors).toEqual([]);
		const vaultFact = notes.files.get("AI Memory/shop-api/deploy-keys.md");
		expect(vaultFact).toContain("Deploys go through CI.");
		expect(vaultFact).toContain("[redacted:");
		const written = await everythingWritten();
		for (const [kind, secret] of Object.entries(SECRETS)) expect(written.includes(secret), kind).toBe(false);
		// Claude Code's own file keeps what it holds.
		expect(await readFile(join(memoryDir, "project_deploy.md"), "utf8")).toBe(FACT());
	});

	it("an edit made to the redacted copy in the vault goes back to Claude Code with its secrets kept", async () => {
		await sync();
		const path = "AI Memory/shop-api/deploy-keys.md";
		notes.files.set(path, notes.files.get(path)!.replace("Deploys go through CI.", "Deploys go through CI, Fridays too."));
		const report = await sync();
		expect(report.errors).toEqual([]);
		expect(await readFile(join(memoryDir, "project_deploy.md"), "utf8")).toBe(FACT().replace("Deploys go through CI.", "Deploys go through CI, Fridays too."));
		const written = await everythingWritten();
		for (const [kind, secret] of Object.entries(SECRETS)) expect(written.includes(secret), kind).toBe(false);
		// And then it is quiet: nothing flips back and forth.
		const again = await sync();
		expect(again.memoryWritten).toEqual([]);
	});

	it("a pattern added, then a rebuild, takes its secret out of fact proposals and facts' vault files: their names, texts, the notes' links and the state", async () => {
		const custom = "acmetok-Zq8Xw2-Qx7";
		const C = "cccccccc-3333-4000-8000-000000000003";
		const env = { sessionId: C, cwd: projectPath, timestamp: "2026-11-22T10:00:00.000Z" };
		await writeFile(join(projects, "-home-dev-shop-api", `${C}.jsonl`), jsonl([userText(`Always use ${custom} for the billing API.`, env), assistant(text("Noted."), { ...env, messageId: "msg_c" })]));
		await writeFile(join(memoryDir, "project_ci.md"), withoutFlatProperties(renderFact({ name: `ci ${custom}`, description: "The CI key", type: "project" }, "Body.\n")));
		expect((await sync()).errors).toEqual([]);
		const proposal = [...notes.files.keys()].find((k) => k.includes("/_inbox/") && /zq8xw2/i.test(k));
		expect(proposal).toBeDefined();
		expect(notes.files.has(`AI Memory/shop-api/ci-${custom.toLowerCase()}.md`)).toBe(true);
		notes.files.set(proposal!, `${notes.files.get(proposal!)!}\nMine: ${custom} is the staging one.\n`);
		const patterned = { ...settings(), redaction: { ...settings().redaction, extraPatterns: ["acmetok-[A-Za-z0-9-]+"] } };
		// A dry run lists the renames, and makes none.
		const dry = await new VaultSync(projects, join(root, "state"), notes).plan(patterned, { rebuild: true });
		expect(dry.plan.moves).toEqual(expect.arrayContaining([{ from: proposal, to: "AI Memory/shop-api/_inbox/always-use-redacted-custom-for-billing-api.md" }]));
		expect(notes.files.has(proposal!)).toBe(true);
		const report = await new VaultSync(projects, join(root, "state"), notes).run(patterned, { rebuild: true });
		expect(report.errors).toEqual([]);
		expect([...notes.files.keys()].filter((k) => /zq8xw2/i.test(k))).toEqual([]);
		expect((await everythingWritten()).toLowerCase()).not.toContain("zq8xw2");
		const renamed = "AI Memory/shop-api/_inbox/always-use-redacted-custom-for-billing-api.md";
		expect(notes.files.get(renamed)).toContain("Mine: [redacted:custom] is the staging one.");
		const note = [...notes.files.entries()].find(([k]) => k.includes("Always use"))![1];
		expect(note).toContain("[[always-use-redacted-custom-for-billing-api]]");
		expect(notes.files.has("AI Memory/shop-api/ci-redacted-custom.md")).toBe(true);
		// Claude Code's own file keeps what it holds, and the next sync is quiet.
		expect(await readFile(join(memoryDir, "project_ci.md"), "utf8")).toContain(custom);
		const again = await new VaultSync(projects, join(root, "state"), notes).run(patterned);
		expect(again.memoryWritten).toEqual([]);
		expect(again.notesMoved).toEqual([]);
	});
});
