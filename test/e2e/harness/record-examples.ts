/**
 * Records small example transcripts with the REAL Claude Code CLI (scripted by the
 * stub API) into `examples/claude-projects/`, mirroring a real `~/.claude/projects`
 * tree (sub-agent transcripts included), for demos and parser fixtures.
 *
 * Run: `npm run record:examples` (bundles this file with esbuild, see scripts/record-examples.mjs).
 *
 * Stable, readable paths: the demo project lives at /tmp/ai-memory-demo/shop-api and the
 * fake HOME at /tmp/ai-memory-demo/home (both wiped first); session ids are fixed.
 * To keep the files small, sessions run with a one-line system prompt, a reduced tool
 * set, no system-prompt snapshot and no slash commands; every record is otherwise
 * exactly what the client wrote.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { CLAUDE_CODE_VERSION, ensureClaudeCode, repoRoot } from "./claude-install.js";
import { encodeProjectDir, listTranscripts, runClaude } from "./run-claude.js";
import { startStub, text, thinking, toolUse, type StubRule } from "./stub-server.js";

const DEMO_ROOT = "/tmp/ai-memory-demo";
const HOME = join(DEMO_ROOT, "home");
const PROJECT = join(DEMO_ROOT, "shop-api");
const SYSTEM_PROMPT = "You are Claude Code, Anthropic's CLI for coding. Help the user with software engineering tasks in this project.";
const MAX_TOTAL_BYTES = 200 * 1024;

const p = (rel: string): string => join(PROJECT, rel);

/** The small project the demo sessions work on. */
const SEED: Record<string, string> = {
	"package.json": JSON.stringify({ name: "shop-api", version: "1.0.0", type: "module", scripts: { test: "node check.js" } }, null, 2) + "\n",
	"CLAUDE.md": "# shop-api\n\nA tiny HTTP API for a shop. Plain Node.js, no dependencies.\nRun `node check.js` after every change.\n",
	"src/data.js": `export const products = [
	{ id: 1, name: "Coffee beans", price: 12 },
	{ id: 2, name: "Tea", price: 5 },
];

export const orders = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, productId: (i % 2) + 1, quantity: 1 }));
`,
	"src/server.js": `import { products } from "./data.js";

export function handle(method, path, body) {
	if (method === "GET" && path === "/products") return { status: 200, body: products };
	if (method === "POST" && path === "/products") {
		if (typeof body?.name !== "string" || body.name === "") return { status: 400, body: { error: "name is required" } };
		if (typeof body?.price !== "number" || body.price <= 0) return { status: 400, body: { error: "price must be positive" } };
		const product = { id: products.length + 1, name: body.name, price: body.price };
		products.push(product);
		return { status: 201, body: product };
	}
	return { status: 404, body: { error: "not found" } };
}
`,
	"src/cart.js": `export function cartTotal(lines) {
	return lines.reduce((sum, line) => sum + line.price, 0);
}
`,
	"src/orders.js": `export function listOrders(orders) {
	return orders;
}
`,
	"check.js": `import assert from "node:assert/strict";
import { handle } from "./src/server.js";

assert.equal(handle("GET", "/products").status, 200);
assert.equal(handle("POST", "/products", { name: "", price: 1 }).status, 400);
assert.equal(handle("GET", "/nope").status, 404);
console.log("all checks passed");
`,
};

interface DemoSession {
	id: string;
	prompts: string[];
	tools: string;
	rules: StubRule[];
}

const SESSIONS: DemoSession[] = [
	{
		// 1. Add an endpoint, then a follow-up prompt.
		id: "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01",
		prompts: ["Add a GET /products/:id endpoint to the shop API.", "Return a 404 when the product does not exist."],
		tools: "Bash,Edit,Read",
		rules: [
			{
				match: "GET /products/:id",
				steps: [
					[text("Let me look at the current routes first."), toolUse("Read", { file_path: p("src/server.js") })],
					[
						text("I'll add a route that matches `/products/<id>` and looks the product up by id."),
						toolUse("Edit", {
							file_path: p("src/server.js"),
							old_string: '\tif (method === "POST" && path === "/products") {',
							new_string:
								'\tconst byId = /^\\/products\\/(\\d+)$/.exec(path);\n\tif (method === "GET" && byId) return { status: 200, body: products.find((p) => p.id === Number(byId[1])) };\n\tif (method === "POST" && path === "/products") {',
						}),
					],
					[toolUse("Bash", { command: "node check.js", description: "Run the project checks" })],
					"Added `GET /products/:id` in `src/server.js`: it parses the id from the path and returns the matching product. The existing checks still pass.",
				],
			},
			{
				match: "404",
				steps: [
					[
						text("Right now an unknown id returns 200 with an empty body. I'll return 404 instead."),
						toolUse("Edit", {
							file_path: p("src/server.js"),
							old_string: '\tif (method === "GET" && byId) return { status: 200, body: products.find((p) => p.id === Number(byId[1])) };',
							new_string:
								'\tif (method === "GET" && byId) {\n\t\tconst product = products.find((p) => p.id === Number(byId[1]));\n\t\treturn product ? { status: 200, body: product } : { status: 404, body: { error: "product not found" } };\n\t}',
						}),
					],
					"Done: `GET /products/99` now answers 404 with `{ error: \"product not found\" }`; known ids still answer 200.",
				],
			},
		],
	},
	{
		// 2. A bug fix, with a thinking block.
		id: "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d02",
		prompts: ["The cart total is wrong when a line has quantity > 1. Can you fix it?"],
		tools: "Bash,Edit,Read",
		rules: [
			{
				match: "cart total",
				steps: [
					[thinking("The total probably ignores quantity. Check cartTotal in src/cart.js."), toolUse("Read", { file_path: p("src/cart.js") })],
					[
						text("Found it: `cartTotal` adds `line.price` once per line and ignores `line.quantity`."),
						toolUse("Edit", { file_path: p("src/cart.js"), old_string: "sum + line.price", new_string: "sum + line.price * (line.quantity ?? 1)" }),
					],
					[
						toolUse("Bash", {
							command: `node -e 'import("./src/cart.js").then(({ cartTotal }) => console.log(cartTotal([{ price: 5, quantity: 3 }, { price: 12 }])))'`,
							description: "Check the cart total with quantities",
						}),
					],
					"Fixed `cartTotal` in `src/cart.js`: each line now counts `price × quantity` (quantity defaults to 1). Three teas and one coffee now total 27.",
				],
			},
		],
	},
	{
		// 3. A refactor that starts with a sub-agent.
		id: "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d03",
		prompts: ["Refactor: move the product validation out of server.js into its own module."],
		tools: "Agent,Edit,Read,Write",
		rules: [
			{
				match: "Find every place",
				steps: [
					[text("Reading the request handler."), toolUse("Read", { file_path: p("src/server.js") })],
					"Product validation lives only in `src/server.js:11-12`, in the `POST /products` branch: two checks (name is a non-empty string, price is a positive number), both answering 400.",
				],
			},
			{
				match: "Refactor: move the product validation",
				steps: [
					[
						text("I'll have an agent map where validation happens before I move it."),
						toolUse("Agent", {
							description: "Find product validation",
							prompt: `Find every place in ${p("src")} that validates product input (name, price). Report file:line and what each check does.`,
							subagent_type: "Explore",
							run_in_background: false,
						}),
					],
					[
						text("Validation is only in the POST handler. Moving it to `src/validate.js`."),
						toolUse("Write", {
							file_path: p("src/validate.js"),
							content: `/** Returns an error message for invalid product input, or null. */
export function validateProduct(body) {
	if (typeof body?.name !== "string" || body.name === "") return "name is required";
	if (typeof body?.price !== "number" || body.price <= 0) return "price must be positive";
	return null;
}
`,
						}),
					],
					[toolUse("Read", { file_path: p("src/server.js") })],
					[
						toolUse("Edit", {
							file_path: p("src/server.js"),
							old_string: [
								'import { products } from "./data.js";',
								"",
								"export function handle(method, path, body) {",
								'\tif (method === "GET" && path === "/products") return { status: 200, body: products };',
								"\tconst byId = /^\\/products\\/(\\d+)$/.exec(path);",
							].join("\n"),
							new_string: [
								'import { products } from "./data.js";',
								'import { validateProduct } from "./validate.js";',
								"",
								"export function handle(method, path, body) {",
								'\tif (method === "GET" && path === "/products") return { status: 200, body: products };',
								"\tconst byId = /^\\/products\\/(\\d+)$/.exec(path);",
							].join("\n"),
						}),
					],
					[
						toolUse("Edit", {
							file_path: p("src/server.js"),
							old_string:
								'\t\tif (typeof body?.name !== "string" || body.name === "") return { status: 400, body: { error: "name is required" } };\n\t\tif (typeof body?.price !== "number" || body.price <= 0) return { status: 400, body: { error: "price must be positive" } };',
							new_string: "\t\tconst error = validateProduct(body);\n\t\tif (error) return { status: 400, body: { error } };",
						}),
					],
					"Moved product validation into `src/validate.js` (`validateProduct(body)` returns an error message or null); `POST /products` now calls it.",
				],
			},
		],
	},
	{
		// 4. Korean prompts.
		id: "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d04",
		prompts: ["주문 목록 API에 페이지네이션을 추가해 줘. page와 limit 파라미터를 받도록 해 줘.", "기본 limit을 20으로 바꿔 줘."],
		tools: "Bash,Edit,Read",
		rules: [
			{
				match: "페이지네이션",
				steps: [
					[text("현재 주문 목록 함수를 먼저 확인하겠습니다."), toolUse("Read", { file_path: p("src/orders.js") })],
					[
						toolUse("Edit", {
							file_path: p("src/orders.js"),
							old_string: "export function listOrders(orders) {\n\treturn orders;\n}",
							new_string:
								"export function listOrders(orders, { page = 1, limit = 10 } = {}) {\n\tconst start = (page - 1) * limit;\n\treturn { items: orders.slice(start, start + limit), page, limit, total: orders.length };\n}",
						}),
					],
					"`listOrders`에 페이지네이션을 추가했습니다. `page`(기본 1)와 `limit`(기본 10)을 받아 `{ items, page, limit, total }`을 돌려줍니다.",
				],
			},
			{
				match: "기본 limit",
				steps: [
					[toolUse("Edit", { file_path: p("src/orders.js"), old_string: "limit = 10", new_string: "limit = 20" })],
					"기본 `limit`을 20으로 변경했습니다.",
				],
			},
		],
	},
];

function walkFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walkFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

async function main(): Promise<void> {
	const started = Date.now();
	ensureClaudeCode();
	rmSync(DEMO_ROOT, { recursive: true, force: true });
	for (const [rel, content] of Object.entries(SEED)) {
		mkdirSync(dirname(p(rel)), { recursive: true });
		writeFileSync(p(rel), content);
	}
	mkdirSync(HOME, { recursive: true });
	const stub = await startStub();
	try {
		for (const s of SESSIONS) {
			stub.setScript({ rules: s.rules });
			const r = await runClaude({
				home: HOME,
				cwd: PROJECT,
				stub,
				prompt: s.prompts,
				extraArgs: [
					"--session-id",
					s.id,
					"--system-prompt",
					SYSTEM_PROMPT,
					"--system-prompt-snapshot",
					"off",
					"--disable-slash-commands",
					"--tools",
					s.tools,
				],
			});
			if (r.exitCode !== 0 || r.sessionId !== s.id) {
				throw new Error(`session ${s.id} failed: exit ${r.exitCode}, session ${r.sessionId}\n${r.stderr}\n${r.stdout.slice(-2000)}`);
			}
			const unmatched = stub.mainRequests().filter((q) => q.rule === undefined);
			if (unmatched.length > 0) throw new Error(`session ${s.id}: ${unmatched.length} request(s) matched no rule: ${unmatched.map((q) => q.prompt).join(" | ")}`);
			const failedTools = stub
				.mainRequests()
				.flatMap((q) => JSON.stringify((q.body as { messages?: unknown[] }).messages?.slice(-1) ?? []).match(/"is_error":true[^}]*/g) ?? []);
			if (failedTools.length > 0) throw new Error(`session ${s.id}: a tool call failed: ${failedTools.join(" | ")}`);
			stub.clear();
			process.stdout.write(`recorded ${s.id} (${s.prompts.length} prompt(s)) in ${r.durationMs} ms\n`);
		}
	} finally {
		await stub.close();
	}

	// Copy the project's folder as Claude Code left it: <session>.jsonl, <session>/subagents/agent-<id>.jsonl
	// and agent-<id>.meta.json (the empty auto-memory folder is left out).
	const projectDir = encodeProjectDir(PROJECT);
	const src = join(HOME, ".claude", "projects", projectDir);
	const dest = join(repoRoot(), "examples", "claude-projects", projectDir);
	rmSync(dest, { recursive: true, force: true });
	mkdirSync(dest, { recursive: true });
	cpSync(src, dest, { recursive: true, filter: (from) => relative(src, from) !== "memory" });
	if (listTranscripts(HOME).filter((t) => t.project === projectDir).length !== SESSIONS.length + 1) {
		throw new Error("expected one transcript per session plus one sub-agent transcript");
	}
	const files = walkFiles(dest);
	for (const f of files) chmodSync(f, 0o644);
	const total = files.reduce((n, f) => n + statSync(f).size, 0);
	const secrets = files.filter((f) => /sk-ant-|x-api-key|ANTHROPIC_API_KEY/.test(readFileSync(f, "utf8")));
	for (const f of files) process.stdout.write(`  ${relative(repoRoot(), f)}  ${statSync(f).size} B\n`);
	process.stdout.write(`Claude Code ${CLAUDE_CODE_VERSION}: ${files.length} files, ${total} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	if (secrets.length > 0) throw new Error(`key material found in: ${secrets.join(", ")}`);
	if (total > MAX_TOTAL_BYTES) throw new Error(`examples are ${total} bytes, over the ${MAX_TOTAL_BYTES} byte budget`);
}

main().catch((err: unknown) => {
	process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
	process.exit(1);
});
