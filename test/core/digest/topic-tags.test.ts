import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildKeywordStats, commandSignals, fileSignals, keywordsOf, tagBasis, toolSignals, topicTags, toTag, type KeywordStats, type TagInput } from "../../../src/core/digest/topic-tags";

/** Ten hand-written sessions in four languages: the corpus that prompt keywords stand out against. */
const CORPUS: Record<string, string[]> = {
	koPaging: ["주문 목록 API에 페이지네이션을 추가해 줘. page와 limit 파라미터를 받도록 해 줘."],
	koError: ["주문 API에서 500 에러가 나요. 서버 로그를 확인해 줘"],
	koCache: ["결제 API 응답 속도가 느려요. 캐시를 적용해 줘", "서버에서 캐시가 안 지워져요"],
	jaLogin: ["ログイン画面のバリデーションを修正してください"],
	jaMail: ["ユーザー登録のメール送信が失敗します。ログを確認してください"],
	zhPaging: ["请帮我给用户列表接口加上分页"],
	zhCaptcha: ["修复用户登录接口的验证码问题"],
	enRate: ["Add rate limiting to the login endpoint"],
	enCheckout: ["The checkout endpoint returns 500 when the cart is empty", "Also log the cart id"],
	enInvoice: ["Write unit tests for the invoice service", "Now add rate limiting to the invoice service too"],
};
const STATS = buildKeywordStats(Object.values(CORPUS).map(keywordsOf));

function tagsFor(prompts: string[], extra: Partial<TagInput> = {}, stats: KeywordStats = STATS): string[] {
	return topicTags({ project: "shop-api", files: [], tools: [], prompts, ...extra }, stats, { prefix: "ai/" });
}

describe("toTag", () => {
	it.each([
		["ai/", "Docker", "ai/docker"],
		["ai", "docker", "ai/docker"],
		["#ai/", "docker", "ai/docker"],
		["", "Docker", "docker"],
		["ai/", "Rate Limiting", "ai/rate-limiting"],
		["ai/", "#hash  tag!", "ai/hash-tag"],
		["ai/", "Next.js", "ai/next-js"],
		["ai/", "don't", "ai/dont"],
		["ai/", "v2", "ai/v2"],
		["ai/", "ＡＰＩ", "ai/api"],
		["ai/", "페이지네이션", "ai/페이지네이션"],
		["ai/", "ログイン画面", "ai/ログイン画面"],
		["ai/", "lang/TypeScript", "ai/lang/typescript"],
		["ai/", "a//b/", "ai/a/b"],
		["ai/", "ai/docker", "ai/docker"],
		["memory/ai/", "Docker", "memory/ai/docker"],
	])("toTag(%j, %j) = %j", (prefix, raw, tag) => {
		expect(toTag(prefix, raw)).toBe(tag);
	});

	it.each([["2024"], ["2024-01"], [""], ["   "], ["!!!"], ["#"], ["///"]])("rejects %j", (raw) => {
		expect(toTag("ai/", raw)).toBeUndefined();
	});

	it("every produced tag is a valid Obsidian tag", () => {
		const valid = /^[\p{L}\p{M}\p{N}_/-]+$/u;
		const all = Object.values(CORPUS).flatMap((prompts) => tagsFor(prompts));
		for (const tag of all) {
			expect(tag).toMatch(valid);
			expect(tag).toMatch(/\p{L}/u);
			expect(tag).toBe(tag.toLowerCase());
		}
	});
});

describe("fileSignals", () => {
	it.each<[string, string[]]>([
		["src/app/page.tsx", ["typescript"]],
		["/home/ana/.config/hypr/bindings.conf", ["hyprland"]],
		["/home/ana/dotfiles/.config/nvim/init.lua", ["lua", "neovim"]],
		["/home/ana/.config/unknown-app/x.conf", []],
		["lib/util.mjs", ["javascript"]],
		["app/models.py", ["python"]],
		["src/main.rs", ["rust"]],
		["cmd/server/main.go", ["go"]],
		["App.kt", ["kotlin"]],
		["Sources/App.swift", ["swift"]],
		["src/engine.cpp", ["cpp"]],
		["include/list.h", ["c"]],
		["scripts/deploy.sh", ["shell"]],
		["styles/site.scss", ["css"]],
		["lib/app.ex", ["elixir"]],
		["Dockerfile", ["docker"]],
		["docker/Dockerfile.dev", ["docker"]],
		["docker-compose.yml", ["docker"]],
		["package.json", ["node"]],
		["tsconfig.build.json", ["typescript"]],
		["Cargo.toml", ["rust"]],
		["go.mod", ["go"]],
		["pyproject.toml", ["python"]],
		["requirements-dev.txt", ["python"]],
		["pom.xml", ["java"]],
		["build.gradle", ["java"]],
		["Gemfile", ["ruby"]],
		["next.config.mjs", ["javascript", "nextjs"]],
		["vite.config.ts", ["typescript", "vite"]],
		["tailwind.config.js", ["javascript", "tailwind"]],
		[".github/workflows/ci.yml", ["github-actions"]],
		["Makefile", ["make"]],
		["tools/Justfile", ["just"]],
		["deploy/charts/api/Chart.yaml", ["kubernetes"]],
		["k8s/deployment.yaml", ["kubernetes"]],
		["infra/main.tf", ["terraform"]],
		["prisma/schema.prisma", ["database", "prisma"]],
		["vitest.config.ts", ["testing", "typescript", "vitest"]],
		["jest.config.js", ["javascript", "jest", "testing"]],
		["src/cart.test.ts", ["testing", "typescript"]],
		["src/cart.spec.js", ["javascript", "testing"]],
		["tests/test_api.py", ["python", "testing"]],
		["pkg/cart_test.go", ["go", "testing"]],
		["db/migrations/001_init.sql", ["database", "sql"]],
		["eslint.config.mjs", ["javascript", "linting"]],
		[".eslintrc.json", ["linting"]],
		["CLAUDE.md", ["claude-md"]],
		["README.md", ["docs"]],
		["docs/guide.md", ["docs"]],
		["C:\\work\\shop\\README.md", ["docs"]],
		["notes.md", []],
		["config.yml", []],
		["data.json", []],
		["node_modules/left-pad/index.js", []],
	])("%s → %j", (path, names) => {
		expect(fileSignals(path)).toEqual(names);
	});

	it("names a framework by the place it gives every app's files: a Phoenix app's lib/<app>_web, a Rails app's app/controllers, a Tauri app's src-tauri", () => {
		expect(fileSignals("lib/kiosk_web/router.ex")).toEqual(["elixir", "phoenix"]);
		expect(fileSignals("lib/kiosk_web/live/till_live.ex")).toEqual(["elixir", "liveview", "phoenix"]);
		expect(fileSignals("lib/kiosk_web/components/till.html.heex")).toEqual(["phoenix"]);
		expect(fileSignals("lib/kiosk/till.ex")).toEqual(["elixir"]);
		expect(fileSignals("app/controllers/orders_controller.rb")).toEqual(["rails", "ruby"]);
		expect(fileSignals("config/initializers/cors.rb")).toEqual(["rails", "ruby"]);
		expect(fileSignals("app/services/refund.rb")).toEqual(["ruby"]);
		expect(fileSignals("apps/desktop/src-tauri/src/main.rs")).toEqual(["rust", "tauri"]);
	});

	it("names NestJS by the kind its file names give a class: a controller, a DTO (not a module or service, which Angular has too)", () => {
		expect(fileSignals("src/billing/invoices.controller.ts")).toEqual(["nestjs", "typescript"]);
		expect(fileSignals("src/billing/dto/create-invoice.dto.ts")).toEqual(["nestjs", "typescript"]);
		expect(fileSignals("src/billing/invoices.module.ts")).toEqual(["typescript"]);
		expect(fileSignals("src/billing/invoices.service.ts")).toEqual(["typescript"]);
	});

	it("reads only the part of an absolute path below the project folder", () => {
		expect(fileSignals("/home/me/test/shop-api/src/cart.ts", "shop-api")).toEqual(["typescript"]);
		expect(fileSignals("/home/me/test/shop-api/src/cart.ts")).toEqual(["testing", "typescript"]);
	});
});

describe("commandSignals", () => {
	it.each<[string, string[]]>([
		["npm test", ["node", "testing"]],
		["pnpm run lint", ["linting", "node"]],
		["yarn build", ["node"]],
		["npx tsc --noEmit", ["node", "typescript"]],
		["cd web && NODE_ENV=test npx vitest run", ["node", "testing", "vitest"]],
		["cargo build --release", ["rust"]],
		["cargo test", ["rust", "testing"]],
		["pytest -q tests/", ["pytest", "python", "testing"]],
		["python -m pytest", ["pytest", "python", "testing"]],
		["/usr/bin/python3.12 manage.py migrate", ["python"]],
		["go test ./...", ["go", "testing"]],
		["docker compose up -d", ["docker"]],
		["kubectl apply -f k8s/", ["kubernetes"]],
		["helm upgrade api ./chart", ["kubernetes"]],
		["git commit -m 'wip' && git push", ["git"]],
		["git status", []],
		["git worktree add ../shop-review review/cart", ["git"]],
		["git stash && git pull", ["git"]],
		["terraform plan", ["terraform"]],
		["psql -c 'select 1'", ["database", "postgresql"]],
		["npx prisma migrate dev", ["database", "node", "prisma"]],
		["sudo timeout 30 make check", ["make"]],
		["just lint", ["just"]],
		["ls -la | grep foo", []],
		["brew install zellij", ["homebrew"]],
		["hyprctl reload && killall hypridle", ["hyprland"]],
		["mix phx.server", ["elixir", "phoenix"]],
		["mix ecto.migrate", ["database", "elixir"]],
		["npm install @supabase/ssr @supabase/supabase-js", ["node", "supabase"]],
		["pnpm add -D tailwindcss", ["node", "tailwind"]],
		["pip install fastapi==0.110 uvicorn", ["fastapi", "python"]],
		["npm install left-pad", ["node"]],
		// Read as the shell reads it: what quotes, comments and here-documents hold runs nothing.
		['echo "done; cargo test next" && ls', []],
		["cat > notes.md <<'EOF'\npytest -q\nEOF", []],
		['git commit -m "fix: x | npm test"', ["git"]],
		["env -i PATH=/bin CI=1 go test ./... 2>&1 | tail", ["go", "testing"]],
	])("%s → %j", (command, names) => {
		expect(commandSignals(command)).toEqual(names);
	});
});

describe("toolSignals", () => {
	it.each<[string, string[]]>([
		["WebFetch", ["research"]],
		["WebSearch", ["research"]],
		["mcp__github__create_pull_request", ["mcp/github"]],
		["mcp__plugin_linear_linear__get_issue", ["mcp/linear"]],
		["mcp__ide__getDiagnostics", []],
		["Agent", []],
		["Task", []],
		["Read", []],
		["Bash", []],
		["mcp__a_b_a_b__x", ["mcp/a_b"]],
		["mcp__a_ab__x", ["mcp/a_ab"]],
		["mcp__ab_a__x", ["mcp/ab_a"]],
		["mcp___a__x", ["mcp/_a"]],
	])("%s → %j", (tool, names) => {
		expect(toolSignals(tool)).toEqual(names);
	});

	it("reads a server named twice as a back-reference did, in linear time on a name of a million characters (the regex took 24 s)", () => {
		const start = performance.now();
		expect(toolSignals(`mcp__${"a_".repeat(500_000)}b__search`)).toEqual([`mcp/${"a_".repeat(500_000)}b`]);
		expect(toolSignals(`mcp__${"a_".repeat(250_000)}b_${"a_".repeat(250_000)}b__search`)).toEqual([`mcp/${"a_".repeat(250_000)}b`]);
		expect(performance.now() - start).toBeLessThan(5_000);
	});
});

describe("keywordsOf", () => {
	it("Korean: strips particles and 하다 endings, drops verb forms, fillers and one-syllable leftovers", () => {
		expect(keywordsOf(["주문 목록 API에 페이지네이션을 추가해 줘. page와 limit 파라미터를 받도록 해 줘."])).toEqual([
			"주문", "주문-목록", "목록", "api", "페이지네이션", "page", "limit", "파라미터",
		]);
		expect(keywordsOf(["서버에서 로깅이 안 돼요. 사용자들의 권한을 리팩토링해줘. 속도가 느려요"])).toEqual(["서버", "로깅", "사용자", "권한", "리팩토링", "속도"]);
	});

	it("Japanese: keeps katakana and kanji nouns, glues split katakana, drops hiragana grammar", () => {
		expect(keywordsOf(["ログイン画面のバリデーションを修正してください"])).toEqual(["ログイン", "ログイン画面", "画面", "バリデーション"]);
		expect(keywordsOf(["マイグレーションを書き直して"])).toEqual(["マイグレーション"]);
	});

	it("Chinese: glues one-character words the dictionary split, drops stop words", () => {
		expect(keywordsOf(["请帮我给用户列表接口加上分页"])).toEqual(["用户", "用户列表", "列表", "列表接口", "接口", "分页"]);
		expect(keywordsOf(["部署到服务器"])).toEqual(["部署", "服务器"]);
	});

	it("English: lower-cases, singularizes, drops stop words, numbers, hex, URLs, commands; a path counts by its file name", () => {
		expect(keywordsOf(["Let's fix the flaky Webhooks in src/hooks.ts, see https://example.com/x and `npm test`: 500 errors, id 3fa85f64c2, getUserById, queries"])).toEqual([
			"flaky", "flaky-webhook", "webhook", "hook", "query",
		]);
		expect(keywordsOf(["Add rate-limiting"])).toEqual(["rate-limiting"]);
	});

	it("maps words for known topics in any language to one name", () => {
		expect(keywordsOf(["테스트 추가", "テスト", "测试", "unit tests", "数据库"])).toEqual(["testing", "testing", "testing", "unit", "testing", "database"]);
	});
});

describe("buildKeywordStats", () => {
	it("counts each term once per session, whatever the order of sessions", () => {
		const sessions = Object.values(CORPUS).map(keywordsOf);
		const reversed = buildKeywordStats([...sessions].reverse());
		expect(reversed.documents).toBe(STATS.documents);
		expect([...reversed.df].sort()).toEqual([...STATS.df].sort());
		expect(STATS.df.get("api")).toBe(3);
		expect(buildKeywordStats([["a", "a", "b"], ["a"]]).df).toEqual(new Map([["a", 2], ["b", 1]]));
	});
});

describe("topicTags: prompt keywords in four languages", () => {
	// One-prompt sessions: only the known technical terms (페이지네이션, ログイン, 分页, rate limiting)
	// have evidence enough; the other words are said once (see topic-tag-evidence.test.ts).
	it("Korean", () => {
		const tags = tagsFor(CORPUS.koPaging ?? []);
		expect(tags).toEqual(["ai/project/shop-api", "ai/페이지네이션"]);
		for (const bad of ["ai/추가해", "ai/추가", "ai/줘", "ai/받도록", "ai/api", "ai/page", "ai/limit"]) expect(tags).not.toContain(bad);
	});

	it("Japanese", () => {
		const tags = tagsFor(CORPUS.jaLogin ?? []);
		expect(tags).toEqual(["ai/project/shop-api", "ai/ログイン", "ai/バリデーション"]);
		expect(tags).not.toContain("ai/してください");
		expect(tags).not.toContain("ai/修正");
	});

	it("Chinese", () => {
		const tags = tagsFor(CORPUS.zhPaging ?? []);
		expect(tags).toEqual(["ai/project/shop-api", "ai/分页"]);
		for (const bad of ["ai/请", "ai/给", "ai/加上"]) expect(tags).not.toContain(bad);
	});

	it("English", () => {
		const tags = tagsFor(CORPUS.enRate ?? []);
		expect(tags).toEqual(["ai/project/shop-api", "ai/login-endpoint", "ai/rate-limiting"]);
		for (const bad of ["ai/add", "ai/the", "ai/rate", "ai/limiting"]) expect(tags).not.toContain(bad);
	});

	it("still tags without a corpus (first sync, one session)", () => {
		expect(tagsFor(CORPUS.enRate ?? [], {}, buildKeywordStats([]))).toEqual(["ai/project/shop-api", "ai/rate-limiting", "ai/login-endpoint"]);
	});

	it("never picks a term common to most sessions", () => {
		const sessions = [
			["Refactor the widget renderer"],
			["The widget crashes on resize"],
			["Widget colors look off in dark mode"],
			["Make the widget load faster with lazy images"],
			["Widget tooltip overlaps the toolbar"],
		];
		const stats = buildKeywordStats(sessions.map(keywordsOf));
		expect(keywordsOf(sessions[4] ?? [])).toContain("widget");
		for (const prompts of sessions) expect(tagsFor(prompts, {}, stats)).not.toContain("ai/widget");
		expect(tagsFor(sessions[4] ?? [], {}, stats)).toEqual(["ai/project/shop-api", "ai/tooltip"]);
	});

	it("skips the words of the project name", () => {
		expect(tagsFor(["Rename the shop cart.", "The shop cart is slow"], {}, buildKeywordStats([]))).toEqual(["ai/project/shop-api", "ai/cart"]);
	});

	it("skips the project's name written apart (Pay Roll for PayRoll)", () => {
		const tags = topicTags({ project: "PayRoll", files: [], tools: [], prompts: ["The pay roll export drops the overtime column.", "Pay roll totals are off too"] }, buildKeywordStats([]), { prefix: "ai/" });
		expect(tags).not.toContain("ai/pay-roll");
		expect(tags[0]).toBe("ai/project/payroll");
	});
});

describe("topicTags: combining sources", () => {
	const nextApp: TagInput = {
		project: "Shop API",
		files: ["/home/me/Shop API/next.config.js", "app/page.tsx", "app/layout.tsx", "package.json", "app/cart.test.tsx", "app/page.tsx"],
		tools: ["Read", "Edit", "Bash", "WebFetch"],
		prompts: [],
		commands: ["npm test"],
	};

	it("puts the project tag first, then the most specific topic first: framework, language, activity", () => {
		expect(topicTags(nextApp, STATS, { prefix: "ai/" })).toEqual(["ai/project/shop-api", "ai/nextjs", "ai/typescript", "ai/node", "ai/javascript", "ai/testing"]);
	});

	it("respects max (the project tag is extra) and the prefix", () => {
		expect(topicTags(nextApp, STATS, { prefix: "ai/", max: 2 })).toEqual(["ai/project/shop-api", "ai/nextjs", "ai/typescript"]);
		expect(topicTags(nextApp, STATS, { prefix: "ai", max: 0 })).toEqual(["ai/project/shop-api"]);
		expect(topicTags(nextApp, STATS, { prefix: "claude/", max: 1 })).toEqual(["claude/project/shop-api", "claude/nextjs"]);
	});

	it("a known topic named only in a later prompt must stand up to its tier's leader; named in the goal, it stays", () => {
		const files = Array.from({ length: 8 }, (_, i) => `lib/part${i}.rb`);
		const aside = ["Make the report generator faster", "Rust would be quicker, though rewriting is out of the question"];
		expect(topicTags({ project: "p", files, tools: [], prompts: aside }, STATS, { prefix: "ai/" })).not.toContain("ai/rust");
		const goal = ["Rewrite the report generator in Rust", "Keep the old output format"];
		expect(topicTags({ project: "p", files, tools: [], prompts: goal }, STATS, { prefix: "ai/" })).toContain("ai/rust");
	});

	it("fills free slots with the catalog's technical terms beyond the keyword quota, never with ordinary words", () => {
		const prompts = ["Put the quarterly ledger behind oauth, with pagination, a webhook and cors on the export", "The quarterly ledger export is slow", "Ledger totals are wrong too"];
		// One keyword allowed: ledger; export, as ordinary a word, waits; the four technical terms take the free slots.
		expect(topicTags({ project: "books", files: [], tools: [], prompts }, STATS, { prefix: "ai/", maxKeywords: 1 })).toEqual(["ai/project/books", "ai/ledger", "ai/oauth", "ai/pagination", "ai/webhook", "ai/cors"]);
		// With no slot free the quota stands.
		expect(topicTags({ project: "books", files: [], tools: [], prompts }, STATS, { prefix: "ai/", maxKeywords: 1, max: 2 })).toEqual(["ai/project/books", "ai/ledger", "ai/oauth"]);
	});

	it("takes a well-known tool, service or platform named once at its word, as the catalog lists it", () => {
		expect(tagsFor(["Wire credo and dialyzer into the umbrella app's checks"])).toEqual(expect.arrayContaining(["ai/credo", "ai/dialyzer"]));
		expect(tagsFor(["Send the receipt through mailgun"])).toContain("ai/mailgun");
		expect(tagsFor(["Store the refresh token in firestore"])).toContain("ai/firestore");
	});

	it("drops a weak signal next to its tier's leader", () => {
		const files = [...Array.from({ length: 10 }, (_, i) => `src/m${i}.py`), "scripts/one.sh"];
		expect(topicTags({ project: "p", files, tools: [], prompts: [] }, STATS, { prefix: "ai/" })).toEqual(["ai/project/p", "ai/python"]);
	});

	it("keyword before framework before language before activity before test runner; known topics named in prompts join their category", () => {
		const tags = topicTags(
			{ project: "shop-api", files: ["src/cart.py", "Dockerfile"], tools: ["mcp__github__create_pull_request"], prompts: ["Add a refund flow to the checkout, with docker", "The refund flow must email the user"], commands: ["pytest"] },
			STATS,
			{ prefix: "ai/", max: 10 },
		);
		expect(tags).toEqual(["ai/project/shop-api", "ai/refund-flow", "ai/email", "ai/docker", "ai/python", "ai/mcp/github", "ai/testing", "ai/pytest"]);
	});

	it("names the activity a piece of its work belongs to (`docstring` is docs work), after the other topics", () => {
		const tags = topicTags({ project: "ledger", files: ["ledger/rounding.py"], tools: [], prompts: ["Give the rounding module a docstring"] }, STATS, { prefix: "ai/" });
		expect(tags).toEqual(["ai/project/ledger", "ai/docstring", "ai/python", "ai/docs"]);
		expect(topicTags({ project: "ledger", files: [], tools: [], prompts: ["Should the ledger rewrite be done tdd style?"] }, STATS, { prefix: "ai/" })).toContain("ai/testing");
	});

	it("names the test runner the session ran, in a slot the other topics leave free", () => {
		const session = { project: "ledger", files: ["ledger/rounding.py", "tests/test_rounding.py"], tools: [], prompts: ["Round the totals half to even"], commands: ["python -m pytest -x"] };
		expect(topicTags(session, STATS, { prefix: "ai/" })).toContain("ai/pytest");
		expect(topicTags({ ...session, files: ["web/rounding.ts", "web/rounding.test.ts"], commands: ["npx vitest run"] }, STATS, { prefix: "ai/" })).toContain("ai/vitest");
		// With every slot taken, the activity stays and the runner gives way.
		const full = topicTags(session, STATS, { prefix: "ai/", max: 2 });
		expect(full).toContain("ai/testing");
		expect(full).not.toContain("ai/pytest");
	});

	it("applies keyword rules first: Latin words on word boundaries, Korean as substrings", () => {
		const rules = [
			{ keyword: "stripe", tag: "payments" },
			{ keyword: "결제", tag: "결제" },
			{ keyword: "rate limit", tag: "topic/Rate Limits" },
			{ keyword: "api", tag: "api" },
			{ keyword: "bad", tag: "2024" },
		];
		const tag = (prompts: string[]) => topicTags({ project: "shop-api", files: [], tools: [], prompts }, STATS, { prefix: "ai/", rules, max: 3 });
		expect(tag(["Hook up Stripe webhooks"])[1]).toBe("ai/payments");
		expect(tag(["Hook up Stripes"])[1]).toBe("ai/payments");
		expect(tag(["Striped shirts; a pinstripe neither"])).not.toContain("ai/payments");
		expect(tag(["결제를 취소하면 환불해 줘"])[1]).toBe("ai/결제");
		expect(tag(["Raise the RATE   LIMIT"])).toContain("ai/topic/rate-limits");
		expect(tag(["주문 API에 필드를 추가"])).toContain("ai/api");
		expect(tag(["bad bad bad"])).not.toContain("ai/2024");
		expect(tag(["Stripe 결제 with stripe"]).slice(1, 3)).toEqual(["ai/payments", "ai/결제"]);
	});

	it("is deterministic", () => {
		const input: TagInput = { ...nextApp, prompts: CORPUS.enInvoice ?? [] };
		const once = topicTags(input, STATS, { prefix: "ai/" });
		expect(topicTags(input, STATS, { prefix: "ai/" })).toEqual(once);
		const shuffled = buildKeywordStats(Object.values(CORPUS).map(keywordsOf).sort((a, b) => (a.join() < b.join() ? -1 : 1)));
		expect(topicTags(input, shuffled, { prefix: "ai/" })).toEqual(once);
	});
});

/** Not an assertion: prints tags for a few real transcripts when the shared corpus is checked out. */
const REAL = join(__dirname, "..", "..", "..", "..", "shared", "corpus", "claude-transcripts");
describe.skipIf(!existsSync(REAL))("real transcripts (sanity print)", () => {
	it("prints tags for a few first prompts", async () => {
		const { parseTranscript } = await import("../../fixtures/parse-transcript");
		const { promptsOf } = await import("../../../src/core/transcript/session-queries");
		const { digestSession } = await import("../../../src/core/digest/session-digest");
		const walk = (dir: string): string[] =>
			readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? (f === "subagents" ? [] : walk(join(dir, f))) : f.endsWith(".jsonl") ? [join(dir, f)] : []));
		const sessions = walk(REAL).sort().map((file) => {
			const model = parseTranscript(readFileSync(file), file);
			return { model, digest: digestSession(model), prompts: promptsOf(model).filter((p) => p.kind === "prompt").map((p) => p.text) };
		});
		const stats = buildKeywordStats(sessions.map((s) => keywordsOf(s.prompts)));
		for (const { model, digest, prompts } of sessions.filter((s) => s.prompts.length > 0).slice(0, 4)) {
			const tools = [...new Set(model.events.flatMap((e) => (e.kind === "tool" ? [e.call.name] : [])))];
			const tags = topicTags({ project: basename(digest.projectPath ?? "unknown"), files: [...digest.filesTouched, ...digest.filesRead], tools, prompts, commands: digest.commands }, stats, { prefix: "ai/" });
			process.stdout.write(`${(prompts[0] ?? "").replace(/\s+/g, " ").slice(0, 80)}\n  → ${tags.join(" ")}\n`);
		}
	});
});

describe("tagBasis", () => {
	it("made ahead, gives the very tags topicTags makes on its own", () => {
		const inputs: TagInput[] = [
			{ project: "shop-api", files: ["/w/shop-api/src/auth.ts", "/w/shop-api/Dockerfile"], tools: ["Edit", "Bash"], prompts: ["fix the login rate limit and add a docker healthcheck"], commands: ["git checkout -b feat/rate-limit", "npm test"], projectPath: "/w/shop-api", branches: ["feat/rate-limit"] },
			{ project: "cli", files: [], tools: ["WebFetch"], prompts: ["always use pnpm in this repo", "the entire/sessions branch"], branches: ["entire/sessions"] },
		];
		const options = { prefix: "ai/", rules: [{ keyword: "rate limit", tag: "rate-limiting" }], max: 5 };
		for (const input of inputs) expect(topicTags(input, STATS, options, tagBasis(input, options))).toEqual(topicTags(input, STATS, options));
	});
});
