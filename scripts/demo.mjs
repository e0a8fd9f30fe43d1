import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The demo: the bundled example transcripts (recorded from the real Claude Code) synced by the
// built CLI into a demo vault and a demo project's CLAUDE.md, all under ./demo. Running it again
// changes nothing: what is there already (an edited note, CLAUDE.md, the shared memory) is kept,
// and only what is missing is laid out. `npm run demo -- --fresh` starts over.
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const demo = resolve(process.env.AI_MEMORY_DEMO_DIR ?? join(repo, "demo"));
const examples = join(repo, "examples", "claude-projects");
const recordedCwd = "/tmp/ai-memory-demo/shop-api";
const project = join(demo, "shop-api");
const vault = join(demo, "vault");
const claudeDir = join(demo, "claude");

if (process.argv.includes("--fresh")) rmSync(demo, { recursive: true, force: true });
mkdirSync(project, { recursive: true });
mkdirSync(vault, { recursive: true });

/** Writes a file only when it is missing or holds other bytes: an unchanged transcript keeps its stamp, so the sync reads nothing. */
function writeIfChanged(path, text) {
	if (existsSync(path) && readFileSync(path, "utf8") === text) return;
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

// The examples were recorded in /tmp/ai-memory-demo/shop-api; move them to ./demo/shop-api.
const encoded = project.replace(/[^A-Za-z0-9]/g, "-");
const escapedCwd = JSON.stringify(project).slice(1, -1);
const transcripts = join(claudeDir, "projects", encoded);
for (const folder of readdirSync(examples)) {
	const from = join(examples, folder);
	for (const file of readdirSync(from, { recursive: true })) {
		const path = join(from, String(file));
		if (statSync(path).isFile()) writeIfChanged(join(transcripts, String(file)), readFileSync(path, "utf8").split(recordedCwd).join(escapedCwd));
	}
}

// A git repository, as Claude Code keys a project's memory by its git root; then the example
// memory, where Claude Code keeps it for that root (same folder name as the transcripts'), once:
// after that the sync shares it with the vault both ways, and a fact edited there stays edited.
if (!existsSync(join(project, ".git")) && spawnSync("git", ["init", "-q", project]).status !== 0) mkdirSync(join(project, ".git"));
const memory = join(transcripts, "memory");
if (!existsSync(memory)) cpSync(join(repo, "examples", "claude-memory"), memory, { recursive: true, filter: (p) => !p.endsWith("README.md") });

if (!existsSync(join(project, "CLAUDE.md"))) {
	writeFileSync(join(project, "CLAUDE.md"), "# shop-api\n\nA tiny HTTP API for a shop.\n\n## Conventions\n\n- Plain Node, no framework.\n- Every endpoint gets a test in `test/`.\n");
}

const cli = join(repo, "dist", "cli.cjs");
if (!existsSync(cli)) throw new Error("dist/cli.cjs is missing: run `npm run build` first");
const run = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", claudeDir, "--project", project], { encoding: "utf8" });
process.stdout.write(run.stdout);
process.stderr.write(run.stderr);
if (run.status !== 0) process.exit(run.status ?? 1);

const notes = readdirSync(vault, { recursive: true }).filter((f) => String(f).endsWith(".md") && !String(f).startsWith("."));
const show = (p) => relative(process.cwd(), p) || ".";
process.stdout.write(`
Demo ready. Where to look:
  Vault (open it in Obsidian, or read the files):  ${show(vault)}
${notes.map((n) => `    ${n}`).join("\n")}
  The project's CLAUDE.md, hand-written text kept, context block added:  ${show(join(project, "CLAUDE.md"))}
  Claude Code's memory of the project, now also in the vault (AI Memory/shop-api):  ${show(memory)}
  The transcripts it read (recorded from the real Claude Code):  ${show(join(claudeDir, "projects"))}
Run it again: nothing changes (every note is already current), and what you edit in ${show(demo)} stays.
To start over: npm run demo -- --fresh
`);
