import { dict } from "../../dict";
/**
 * Topic names read from what a session touched: file paths, shell commands and tool names.
 * Each function returns the names one item supports; the caller counts them.
 */
import { packageTopic } from "./catalog";
import { gitCommand, programAt, programName, shellParts } from "../../text/shell-parts";

const EXTENSIONS: Record<string, string> = dict({
	ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript",
	js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
	py: "python", pyi: "python", ipynb: "jupyter", rs: "rust", go: "go", java: "java", kt: "kotlin", kts: "kotlin", swift: "swift", rb: "ruby", php: "php", cs: "csharp",
	cpp: "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", hxx: "cpp", c: "c", h: "c",
	sql: "sql", sh: "shell", bash: "shell", zsh: "shell", ps1: "powershell",
	css: "css", scss: "css", sass: "css", less: "css", html: "html", htm: "html",
	vue: "vue", svelte: "svelte", astro: "astro", dart: "dart", lua: "lua", zig: "zig", ex: "elixir", exs: "elixir", hs: "haskell",
	scala: "scala", ml: "ocaml", erl: "erlang", jl: "julia", tf: "terraform", tfvars: "terraform", prisma: "prisma", graphql: "graphql", gql: "graphql", mk: "make",
});

/** Whole file names (lower-case). */
const FILE_NAMES: Record<string, readonly string[]> = dict({
	dockerfile: ["docker"], ".dockerignore": ["docker"], "docker-compose.yml": ["docker"], "docker-compose.yaml": ["docker"], "compose.yml": ["docker"], "compose.yaml": ["docker"],
	"package.json": ["node"], "package-lock.json": ["node"], "pnpm-lock.yaml": ["node"], "pnpm-workspace.yaml": ["node"], "yarn.lock": ["node"], ".npmrc": ["node"], ".nvmrc": ["node"], "bun.lock": ["node"], "bun.lockb": ["node"],
	"deno.json": ["deno"], "deno.jsonc": ["deno"],
	"cargo.toml": ["rust"], "cargo.lock": ["rust"], "go.mod": ["go"], "go.sum": ["go"],
	"pyproject.toml": ["python"], "setup.py": ["python"], "setup.cfg": ["python"], pipfile: ["python"], "poetry.lock": ["python"], "uv.lock": ["python"], "manage.py": ["django", "python"],
	"pom.xml": ["java"], "build.gradle": ["java"], "build.gradle.kts": ["java"], "settings.gradle": ["java"], "settings.gradle.kts": ["java"],
	gemfile: ["ruby"], "gemfile.lock": ["ruby"], rakefile: ["ruby"], "composer.json": ["php"], "cmakelists.txt": ["cpp"],
	"angular.json": ["angular"], "chart.yaml": ["kubernetes"], "kustomization.yaml": ["kubernetes"], "schema.prisma": ["prisma", "database"],
	".gitlab-ci.yml": ["gitlab-ci"], makefile: ["make"], gnumakefile: ["make"], justfile: ["just"], ".justfile": ["just"], ".gitignore": ["git"], ".gitattributes": ["git"],
	"conftest.py": ["pytest", "testing", "python"], "pytest.ini": ["pytest", "testing", "python"], "biome.json": ["linting"], "ruff.toml": ["linting"], ".rubocop.yml": ["linting"], ".editorconfig": ["linting"],
	"claude.md": ["claude-md"], "claude.local.md": ["claude-md"], "readme.md": ["docs"], "readme": ["docs"], "changelog.md": ["docs"], "contributing.md": ["docs"],
});

/** File names by their stem before the first dot: `next.config.mjs`, `tsconfig.build.json`, `.eslintrc.cjs`. */
const FILE_STEMS: Record<string, readonly string[]> = dict({
	"next.config": ["nextjs"], "nuxt.config": ["nuxt"], "vite.config": ["vite"], "vitest.config": ["vitest", "testing"], "jest.config": ["jest", "testing"], "playwright.config": ["playwright", "testing"], "cypress.config": ["cypress", "testing"],
	"tailwind.config": ["tailwind"], "astro.config": ["astro"], "svelte.config": ["svelte"], "remix.config": ["remix"], "webpack.config": ["webpack"],
	tsconfig: ["typescript"], "eslint.config": ["linting"], ".eslintrc": ["linting"], ".prettierrc": ["linting"], "prettier.config": ["linting"], requirements: ["python"],
});

/** Folders under `.config/` (dotfiles) named for the program they configure. */
const CONFIG_DIRS: Record<string, string> = dict({
	hypr: "hyprland", waybar: "waybar", nvim: "neovim", zellij: "zellij", ghostty: "ghostty", alacritty: "alacritty", kitty: "kitty", wezterm: "wezterm", tmux: "tmux", i3: "i3", sway: "sway", fish: "shell", zsh: "shell",
});

const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs", "e2e", "testing"]);
const DOC_DIRS = new Set(["docs", "doc", "documentation"]);
const MIGRATION_DIRS = new Set(["migrations", "migration", "migrate", "alembic"]);
const K8S_DIRS = new Set(["k8s", "kubernetes", "helm", "charts"]);
/** Dependencies and build output say nothing about the session's topic. */
const SKIP_DIRS = new Set(["node_modules", ".venv", "venv", "site-packages", "vendor", ".git", "dist", "build", "target", "__pycache__", ".next"]);

/**
 * Topic names one path supports. Only the part below the project folder counts when the project
 * name is found in the path, so `/home/me/test/shop-api/src/a.ts` is not a test file.
 */
export function fileSignals(path: string, project = ""): string[] {
	let parts = path.replace(/\\/g, "/").toLowerCase().split("/").filter((p) => p !== "" && p !== ".");
	const root = parts.lastIndexOf(project.toLowerCase());
	if (project !== "" && root >= 0 && root < parts.length - 1) parts = parts.slice(root + 1);
	const base = parts[parts.length - 1] ?? "";
	const dirs = parts.slice(0, -1);
	if (base === "" || dirs.some((d) => SKIP_DIRS.has(d))) return [];
	const found = new Set<string>();
	const add = (names: readonly string[] | string | undefined) => {
		for (const name of typeof names === "string" ? [names] : (names ?? [])) found.add(name);
	};
	const dot = base.lastIndexOf(".");
	const ext = dot > 0 ? base.slice(dot + 1) : "";
	add(EXTENSIONS[ext]);
	add(FILE_NAMES[base]);
	const firstDot = base.indexOf(".", 1);
	add(FILE_STEMS[firstDot > 0 ? base.slice(0, firstDot) : base]);
	if (dot > firstDot) add(FILE_STEMS[base.slice(0, dot)]);
	if (base.startsWith("dockerfile") || base.endsWith(".dockerfile")) add("docker");
	if (/^requirements.*\.txt$/.test(base)) add("python");
	if (/\.(test|spec)\.[a-z0-9]+$/.test(base) || /^test_.*\.py$/.test(base) || /_(test|spec)\.(go|py|rb|exs?)$/.test(base)) add("testing");
	if (dirs.some((d) => TEST_DIRS.has(d))) add("testing");
	if (dirs.some((d) => DOC_DIRS.has(d)) && /\.(md|mdx|rst|adoc|txt)$/.test(base)) add("docs");
	if (dirs.some((d) => MIGRATION_DIRS.has(d))) add("database");
	if (dirs.includes("prisma")) add(["prisma", "database"]);
	add(layoutSignals(dirs, ext, base));
	const config = dirs.indexOf(".config");
	if (config >= 0) add(CONFIG_DIRS[dirs[config + 1] ?? ""]);
	if (/\.ya?ml$/.test(base)) {
		const workflows = dirs.indexOf("workflows");
		if (workflows > 0 && dirs[workflows - 1] === ".github") add("github-actions");
		if (dirs.some((d) => K8S_DIRS.has(d))) add("kubernetes");
	}
	return [...found].sort();
}

/** Folders of a Rails app's `app/` that hold Ruby code of the framework's kinds. */
const RAILS_APP_DIRS = new Set(["controllers", "models", "helpers", "mailers", "jobs", "channels"]);

/** NestJS names each class's file for its kind: `orders.controller.ts`, `create-order.dto.ts` (Angular's kinds are others). */
const NEST_FILE = /\.(?:controller|dto)\.ts$/;

/**
 * Frameworks a file's place says, where the framework lays out every app the same way: a Phoenix
 * app's web side under `lib/<app>_web` (its LiveViews in `live/` there, its templates `.heex`),
 * a Rails app's `app/controllers`, `app/models`… and `config/initializers`, a Tauri app's `src-tauri`,
 * a NestJS app's `<name>.controller.ts`.
 */
function layoutSignals(dirs: readonly string[], ext: string, base: string): string[] {
	const found: string[] = [];
	const web = dirs.findIndex((d, i) => i > 0 && d.endsWith("_web") && (dirs[i - 1] === "lib" || dirs[i - 1] === "test"));
	if (ext === "heex" || (web > 0 && /^(?:ex|exs|heex)$/.test(ext))) found.push("phoenix");
	if (web > 0 && dirs.slice(web + 1).includes("live")) found.push("liveview");
	const app = dirs.indexOf("app");
	if (ext === "rb" && ((app >= 0 && RAILS_APP_DIRS.has(dirs[app + 1] ?? "")) || dirs.some((d, i) => d === "config" && (dirs[i + 1] === "initializers" || dirs[i + 1] === "environments")))) found.push("rails");
	if (dirs.includes("src-tauri")) found.push("tauri");
	if (NEST_FILE.test(base)) found.push("nestjs");
	return found;
}

/** What a program name (first word of a shell command) says. */
const PROGRAMS: Record<string, readonly string[]> = dict({
	npm: ["node"], pnpm: ["node"], yarn: ["node"], node: ["node"], bun: ["node"], npx: ["node"], bunx: ["node"], pnpx: ["node"], deno: ["deno"], tsc: ["typescript"], tsx: ["typescript"], "ts-node": ["typescript"],
	vitest: ["vitest", "testing"], jest: ["jest", "testing"], mocha: ["mocha", "testing"], playwright: ["playwright", "testing"], cypress: ["cypress", "testing"], eslint: ["linting"], prettier: ["linting"], biome: ["linting"],
	python: ["python"], pip: ["python"], poetry: ["python"], uv: ["python"], pipenv: ["python"], pytest: ["pytest", "testing", "python"], ruff: ["linting", "python"], black: ["linting", "python"], mypy: ["python"], flake8: ["linting", "python"], alembic: ["database", "python"], jupyter: ["jupyter"],
	cargo: ["rust"], rustc: ["rust"], rustup: ["rust"], go: ["go"], gofmt: ["go"], "golangci-lint": ["linting", "go"],
	ruby: ["ruby"], gem: ["ruby"], bundle: ["ruby"], rake: ["ruby"], rails: ["rails", "ruby"], rspec: ["rspec", "testing", "ruby"], rubocop: ["linting", "ruby"],
	mvn: ["java"], gradle: ["java"], gradlew: ["java"], java: ["java"], javac: ["java"], kotlinc: ["kotlin"], dotnet: ["csharp"], swift: ["swift"], php: ["php"], composer: ["php"],
	dart: ["dart"], flutter: ["dart"], mix: ["elixir"], elixir: ["elixir"], iex: ["elixir"], ghc: ["haskell"], cabal: ["haskell"], stack: ["haskell"], zig: ["zig"], lua: ["lua"],
	docker: ["docker"], "docker-compose": ["docker"], podman: ["docker"], kubectl: ["kubernetes"], helm: ["kubernetes"], minikube: ["kubernetes"], kind: ["kubernetes"], k9s: ["kubernetes"],
	terraform: ["terraform"], tofu: ["terraform"], psql: ["postgresql", "database"], pg_dump: ["postgresql", "database"], mysql: ["mysql", "database"], sqlite3: ["sqlite", "database"], "redis-cli": ["redis"], mongosh: ["mongodb", "database"],
	migrate: ["database"], prisma: ["prisma"], make: ["make"], just: ["just"], gh: ["git"],
	brew: ["homebrew"], hyprctl: ["hyprland"], hypridle: ["hyprland"], hyprpaper: ["hyprland"], udevadm: ["udev"], supabase: ["supabase"], vercel: ["vercel"], streamlit: ["streamlit", "python"],
});

/** Subcommands that add a topic: `npm test`, `cargo test`, `git commit`, `prisma migrate`. */
const SUBCOMMANDS: Record<string, Record<string, readonly string[]>> = dict<Record<string, readonly string[]>>({
	git: dict({ commit: ["git"], push: ["git"], rebase: ["git"], merge: ["git"], "cherry-pick": ["git"], revert: ["git"], tag: ["git"], bisect: ["git"], worktree: ["git"], stash: ["git"] }),
	cargo: dict({ test: ["testing"], nextest: ["testing"], clippy: ["linting"] }),
	go: dict({ test: ["testing"], vet: ["linting"] }),
	mvn: dict({ test: ["testing"] }), gradle: dict({ test: ["testing"] }), gradlew: dict({ test: ["testing"] }), dotnet: dict({ test: ["testing"] }), swift: dict({ test: ["testing"] }), mix: dict({ test: ["testing"] }), flutter: dict({ test: ["testing"] }), deno: dict({ test: ["testing"], lint: ["linting"] }),
	prisma: dict({ migrate: ["database"], db: ["database"] }), rails: dict({ db: ["database"] }), bundle: dict<readonly string[]>({ exec: [] }),
});

const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** `<program> <subcommand> <package>…` installs packages: `npm install @supabase/ssr`, `pip install fastapi`, `cargo add tokio`. */
const INSTALLS: Record<string, ReadonlySet<string>> = dict({
	npm: new Set(["install", "i", "add"]), pnpm: new Set(["add", "install", "i"]), yarn: new Set(["add"]), bun: new Set(["add", "install", "i"]),
	pip: new Set(["install"]), uv: new Set(["add", "pip"]), poetry: new Set(["add"]), cargo: new Set(["add"]), gem: new Set(["install"]), go: new Set(["get"]),
});
const RUNNERS = new Set(["npx", "bunx", "pnpx"]);

/** Topic names one shell command supports: each simple command of it (see `commandsOf`) by its program and subcommand. */
export function commandSignals(command: string): string[] {
	const found = new Set<string>();
	for (const words of shellParts(command)) programSignals(words.slice(programAt(words)), found);
	return [...found].sort();
}

function programSignals(words: string[], found: Set<string>): void {
	const head = programName(words[0] ?? "");
	if (head === "" || head === "cd") return;
	const args = words.slice(1).filter((w) => !w.startsWith("-"));
	for (const name of PROGRAMS[head] ?? []) found.add(name);
	for (const name of SUBCOMMANDS[head]?.[args[0] ?? ""] ?? []) found.add(name);
	// `mix phx.server`, `mix ecto.migrate`: Phoenix's and Ecto's tasks.
	if (head === "mix" && /^phx\./.test(args[0] ?? "")) found.add("phoenix");
	if (head === "mix" && /^ecto\./.test(args[0] ?? "")) found.add("database");
	if (head === "python" && words.includes("-m")) programSignals(words.slice(words.indexOf("-m") + 1), found);
	// A package the session installed is what it works with, when the package is a known topic.
	if (INSTALLS[head]?.has(args[0] ?? "")) for (const spec of args.slice(head === "uv" && args[0] === "pip" ? 2 : 1, 12)) add(found, packageTopic(spec));
	if (RUNNERS.has(head)) programSignals(args, found);
	if (PACKAGE_MANAGERS.has(head)) {
		if (args[0] === "exec" || args[0] === "dlx" || args[0] === "x") programSignals(args.slice(1), found);
		const script = args[0] === "run" ? (args[1] ?? "") : (args[0] ?? "");
		if (/^test(:|$)/.test(script)) found.add("testing");
		if (/^lint(:|$)/.test(script)) found.add("linting");
	}
}

function add(found: Set<string>, name: string | undefined): void {
	if (name !== undefined) found.add(name);
}

/** MCP servers that come with the client itself and say nothing about the topic. */
const BUILT_IN_MCP = new Set(["ide"]);

/**
 * `x_x` → `x` (a plugin's server named twice), as `/^(.+)_\1$/` read it: the halves meet at the
 * middle `_` (the name holds no line break, which `.` would not take). That regex tried each `_`
 * against the rest: a tool named `mcp__a_a_a_…` of 1 MB (the transcript's, never clipped) held
 * the sync 24 s.
 */
function undoubled(name: string): string {
	const mid = (name.length - 1) / 2;
	if (mid < 1 || name[mid] !== "_") return name;
	const half = name.slice(0, mid);
	return half === name.slice(mid + 1) ? half : name;
}

/** Topic names one tool name supports: web tools → research, `mcp__<server>__<tool>` → `mcp/<server>`. */
export function toolSignals(tool: string): string[] {
	if (tool === "WebFetch" || tool === "WebSearch") return ["research"];
	if (tool === "NotebookEdit") return ["jupyter"];
	const mcp = /^mcp__(.+?)__/.exec(tool);
	if (!mcp?.[1]) return [];
	let server = mcp[1].toLowerCase().replace(/^plugin_/, "");
	server = undoubled(server);
	server = server.replace(/[^\p{L}\p{N}_-]+/gu, "-").replace(/^-+|-+$/g, "");
	return server === "" || BUILT_IN_MCP.has(server) ? [] : [`mcp/${server}`];
}

/** Git subcommands whose arguments name branches (or other refs). */
const REF_SUBCOMMANDS = new Set(["checkout", "switch", "branch", "merge", "rebase", "push", "pull", "log", "diff", "cherry-pick", "reset", "show", "fetch", "worktree"]);
/** Options of those subcommands that take a value that is no ref. */
const VALUE_OPTIONS = new Set(["-m", "--message", "-C", "--format", "--pretty", "--date", "--author", "--grep", "-n", "-S", "-G", "-X", "--strategy", "--since", "--until", "-F", "--file"]);

/**
 * Branch (and other ref) names a shell command names: `git checkout -b feat/x`, `git merge a b`,
 * `git push origin main`, `git diff main...HEAD` → feat/x, a, b, main, main, HEAD. Paths after
 * `--`, remotes of push/pull/fetch, commit hashes and option values are left out.
 */
export function gitRefs(command: string): string[] {
	// A word that is git holds g, i, t (in any case): most commands are not cut into words at all.
	if (!GIT_WORD.test(command)) return [];
	const refs: string[] = [];
	for (const words of shellParts(command)) {
		const git = gitCommand(words);
		if (git === undefined) continue;
		const i = git.sub;
		const sub = words[i] ?? "";
		if (!REF_SUBCOMMANDS.has(sub)) continue;
		const args: string[] = [];
		for (let j = i + 1; j < words.length; j++) {
			const word = words[j] ?? "";
			if (word === "--") break;
			if (VALUE_OPTIONS.has(word)) j++;
			else if (!word.startsWith("-") && word !== "") args.push(word);
		}
		if (sub === "worktree") args.splice(0, 2); // worktree add <path> [<branch>]
		if (sub === "push" || sub === "pull" || sub === "fetch") args.shift(); // the remote
		for (const arg of args) {
			for (const ref of arg.split(/\.{2,3}/)) {
				const name = ref.replace(/[~^]\d*$/, "").replace(/^refs\/heads\//, "").replace(/^origin\//, "");
				if (/^[A-Za-z][\w./-]*$/.test(name) && !/^[0-9a-f]{7,40}$/.test(name) && !/\.\w{1,5}$/.test(name)) refs.push(name);
			}
		}
	}
	return refs;
}

const GIT_WORD = /git/i;
