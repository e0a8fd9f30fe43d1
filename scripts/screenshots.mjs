import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import esbuild from "esbuild";
import MarkdownIt from "markdown-it";
import { parse as parseYaml } from "yaml";

/**
 * The screenshots in docs/screenshots/, taken in headless Chromium (Debian's `chromium`, driven
 * over the DevTools protocol on a pipe; nothing is downloaded):
 *
 * - `session-note-{light,dark}.png`: a session note of `npm run demo`, rendered as Obsidian's
 *   reading view shows it (properties, callouts folded as `[!type]-` says, wiki links, comments
 *   hidden), one tool call opened as a click would open it.
 * - `settings-{light,dark}.png`: the plugin's real settings tab (src/obsidian/settings-tab.ts),
 *   bundled for the browser with `obsidian` answered by the test stub, whose controls build the DOM
 *   Obsidian builds (`setting-item`, `checkbox-container`…), in Obsidian's settings window, with
 *   the plugin's own styles.css; its projects are those the demo's sync found.
 * - `sessions-{demo,1000}-{list,pictures}-{light,dark}.png`: the real Sessions view
 *   (src/obsidian/sessions-view.ts, bundled with the stub) in the right sidebar's place, on what the
 *   sync prepared: the demo's vault, with a search typed, and a generated vault of 1,000 sessions
 *   (the real transcripts of ../shared/corpus, or the examples, under fresh ids and spread over a
 *   year, synced by the built CLI), its list and its pictures.
 *
 * The styles copy Obsidian's default theme through its CSS variables. Not run by CI:
 * `apt-get install -y chromium fonts-inter fonts-noto-cjk`, then `node scripts/screenshots.mjs`
 * (`--skip-demo` reuses ./demo; `CHROMIUM=/path` picks another browser).
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(repo, "docs", "screenshots");
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const vault = join(repo, "demo", "vault");
const demoProject = join(repo, "demo", "shop-api");
const WIDTH = 1280;

if (!existsSync(chromium)) {
	process.stderr.write(`No browser at ${chromium}: apt-get install -y chromium (or set CHROMIUM).\n`);
	process.exit(1);
}
if (!process.argv.includes("--skip-demo") || !existsSync(vault)) {
	const demo = spawnSync("npm", ["run", "demo"], { cwd: repo, encoding: "utf8" });
	if (demo.status !== 0) throw new Error(`npm run demo failed:\n${demo.stdout}\n${demo.stderr}`);
}
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "ai-memory-screens-"));

// ---------------------------------------------------------------------------------------------
// Icons (Lucide, as Obsidian uses them).

const ICONS = {
	"chevron-right": '<path d="m9 18 6-6-6-6"/>',
	"chevron-down": '<path d="m6 9 6 6 6-6"/>',
	"chevron-left": '<path d="m15 18-6-6 6-6"/>',
	list: '<path d="M3 12h.01"/><path d="M3 18h.01"/><path d="M3 6h.01"/><path d="M8 12h13"/><path d="M8 18h13"/><path d="M8 6h13"/>',
	"clipboard-list": '<rect width="8" height="4" x="8" y="2" rx="1" ry="1"/><path d="M16 4h2a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h2"/><path d="M12 11h4"/><path d="M12 16h4"/><path d="M8 11h.01"/><path d="M8 16h.01"/>',
	pencil: '<path d="M21.174 6.812a1 1 0 0 0-3.986-3.987L3.842 16.174a2 2 0 0 0-.5.83l-1.321 4.352a.5.5 0 0 0 .623.622l4.353-1.32a2 2 0 0 0 .83-.497z"/><path d="m15 5 4 4"/>',
	info: '<circle cx="12" cy="12" r="10"/><path d="M12 16v-4"/><path d="M12 8h.01"/>',
	flame: '<path d="M8.5 14.5A2.5 2.5 0 0 0 11 12c0-1.38-.5-2-1-3-1.072-2.143-.224-4.054 2-6 .5 2.5 2 4.9 4 6.5 2 1.6 3 3.5 3 5.5a7 7 0 1 1-14 0c0-1.153.433-2.294 1-3a2.5 2.5 0 0 0 2.5 2.5z"/>',
	bot: '<path d="M12 8V4H8"/><rect width="16" height="12" x="4" y="8" rx="2"/><path d="M2 14h2"/><path d="M20 14h2"/><path d="M15 13v2"/><path d="M9 13v2"/>',
	text: '<path d="M15 18H3"/><path d="M17 6H3"/><path d="M21 12H3"/>',
	hash: '<line x1="4" x2="20" y1="9" y2="9"/><line x1="4" x2="20" y1="15" y2="15"/><line x1="10" x2="8" y1="3" y2="21"/><line x1="16" x2="14" y1="3" y2="21"/>',
	clock: '<circle cx="12" cy="12" r="10"/><polyline points="12 6 12 12 16 14"/>',
	tags: '<path d="m15 5 6.3 6.3a2.4 2.4 0 0 1 0 3.4L17 19"/><path d="M9.586 5.586A2 2 0 0 0 8.172 5H3a1 1 0 0 0-1 1v5.172a2 2 0 0 0 .586 1.414L8.29 18.29a2.426 2.426 0 0 0 3.42 0l3.58-3.58a2.426 2.426 0 0 0 0-3.42z"/><circle cx="6.5" cy="9.5" r=".5" fill="currentColor"/>',
	forward: '<polyline points="15 17 20 12 15 7"/><path d="M4 18v-2a4 4 0 0 1 4-4h12"/>',
	folder: '<path d="M20 20a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.69-.9L9.6 3.9A2 2 0 0 0 7.93 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2Z"/>',
	"folder-closed": '<path d="M20 20a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.69-.9L9.6 3.9A2 2 0 0 0 7.93 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2Z"/><path d="M2 10h20"/>',
	"file-text": '<path d="M15 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7Z"/><path d="M14 2v4a2 2 0 0 0 2 2h4"/><path d="M10 9H8"/><path d="M16 13H8"/><path d="M16 17H8"/>',
	"file-plus": '<path d="M15 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7Z"/><path d="M14 2v4a2 2 0 0 0 2 2h4"/><path d="M9 15h6"/><path d="M12 18v-6"/>',
	"folder-plus": '<path d="M12 10v6"/><path d="M9 13h6"/><path d="M20 20a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.69-.9L9.6 3.9A2 2 0 0 0 7.93 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2Z"/>',
	"arrow-up-narrow-wide": '<path d="m3 8 4-4 4 4"/><path d="M7 4v16"/><path d="M11 12h4"/><path d="M11 16h7"/><path d="M11 20h10"/>',
	"chevrons-down-up": '<path d="m7 20 5-5 5 5"/><path d="m7 4 5 5 5-5"/>',
	search: '<circle cx="11" cy="11" r="8"/><path d="m21 21-4.3-4.3"/>',
	bookmark: '<path d="m19 21-7-4-7 4V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v16z"/>',
	"messages-square": '<path d="M14 9a2 2 0 0 1-2 2H6l-4 4V4a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2z"/><path d="M18 9h2a2 2 0 0 1 2 2v11l-4-4h-6a2 2 0 0 1-2-2v-1"/>',
	"git-fork": '<circle cx="12" cy="18" r="3"/><circle cx="6" cy="6" r="3"/><circle cx="18" cy="6" r="3"/><path d="M18 9v2c0 .6-.4 1-1 1H7c-.6 0-1-.4-1-1V9"/><path d="M12 12v3"/>',
	"calendar-days": '<path d="M8 2v4"/><path d="M16 2v4"/><rect width="18" height="18" x="3" y="4" rx="2"/><path d="M3 10h18"/><path d="M8 14h.01"/><path d="M12 14h.01"/><path d="M16 14h.01"/><path d="M8 18h.01"/><path d="M12 18h.01"/><path d="M16 18h.01"/>',
	"layout-dashboard": '<rect width="7" height="9" x="3" y="3" rx="1"/><rect width="7" height="5" x="14" y="3" rx="1"/><rect width="7" height="9" x="14" y="12" rx="1"/><rect width="7" height="5" x="3" y="16" rx="1"/>',
	terminal: '<polyline points="4 17 10 11 4 5"/><line x1="12" x2="20" y1="19" y2="19"/>',
	"arrow-left": '<path d="m12 19-7-7 7-7"/><path d="M19 12H5"/>',
	"arrow-right": '<path d="M5 12h14"/><path d="m12 5 7 7-7 7"/>',
	"book-open": '<path d="M12 7v14"/><path d="M3 18a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h5a4 4 0 0 1 4 4 4 4 0 0 1 4-4h5a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1h-6a3 3 0 0 0-3 3 3 3 0 0 0-3-3z"/>',
	"more-vertical": '<circle cx="12" cy="12" r="1"/><circle cx="12" cy="5" r="1"/><circle cx="12" cy="19" r="1"/>',
	x: '<path d="M18 6 6 18"/><path d="m6 6 12 12"/>',
	plus: '<path d="M5 12h14"/><path d="M12 5v14"/>',
	"help-circle": '<circle cx="12" cy="12" r="10"/><path d="M9.09 9a3 3 0 0 1 5.83 1c0 2-3 3-3 3"/><path d="M12 17h.01"/>',
	settings: '<path d="M12.22 2h-.44a2 2 0 0 0-2 2v.18a2 2 0 0 1-1 1.73l-.43.25a2 2 0 0 1-2 0l-.15-.08a2 2 0 0 0-2.73.73l-.22.38a2 2 0 0 0 .73 2.73l.15.1a2 2 0 0 1 1 1.72v.51a2 2 0 0 1-1 1.74l-.15.09a2 2 0 0 0-.73 2.73l.22.38a2 2 0 0 0 2.73.73l.15-.08a2 2 0 0 1 2 0l.43.25a2 2 0 0 1 1 1.73V20a2 2 0 0 0 2 2h.44a2 2 0 0 0 2-2v-.18a2 2 0 0 1 1-1.73l.43-.25a2 2 0 0 1 2 0l.15.08a2 2 0 0 0 2.73-.73l.22-.39a2 2 0 0 0-.73-2.73l-.15-.08a2 2 0 0 1-1-1.74v-.5a2 2 0 0 1 1-1.74l.15-.09a2 2 0 0 0 .73-2.73l-.22-.38a2 2 0 0 0-2.73-.73l-.15.08a2 2 0 0 1-2 0l-.43-.25a2 2 0 0 1-1-1.73V4a2 2 0 0 0-2-2z"/><circle cx="12" cy="12" r="3"/>',
	vault: '<path d="M3 3h18v18H3z"/><path d="M9 3v18"/>',
};

function icon(name, cls = "svg-icon") {
	return `<svg class="${cls}" xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${ICONS[name] ?? ""}</svg>`;
}

const escapeHtml = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// ---------------------------------------------------------------------------------------------
// Obsidian's default theme, the parts these pages use.

const THEME = `
body { margin: 0; -webkit-font-smoothing: antialiased; }
.theme-light {
	--accent: hsl(258, 88%, 66%);
	--background-primary: #ffffff; --background-primary-alt: #fafafa; --background-secondary: #f6f6f6; --background-secondary-alt: #ffffff;
	--background-modifier-border: #e0e0e0; --background-modifier-border-hover: #d4d4d4; --background-modifier-hover: rgba(0, 0, 0, 0.067);
	--background-modifier-active-hover: hsla(258, 88%, 66%, 0.15); --background-modifier-form-field: #ffffff;
	--text-normal: #222222; --text-muted: #5c5c5c; --text-faint: #ababab; --text-error: #e93147; --text-on-accent: #ffffff;
	--text-accent: hsl(258, 80%, 58%); --interactive-accent: hsl(258, 88%, 66%); --interactive-normal: #ffffff;
	--code-background: #fafafa; --code-normal: #5c5c5c; --code-property: #6b4fd8; --code-string: #2e8a3a; --code-value: #c26a00; --code-punctuation: #9a9a9a;
	--tag-background: hsla(258, 88%, 66%, 0.1); --tag-color: hsl(258, 80%, 58%);
	--titlebar-background: #ececec; --tab-background-active: #ffffff; --shadow: 0 1px 2px rgba(0,0,0,.08), 0 2px 8px rgba(0,0,0,.06);
	--toggle-off: #d4d4d4; --input-shadow: inset 0 0 0 1px rgba(0,0,0,.12), 0 1px 2px rgba(0,0,0,.05);
	--modal-backdrop: rgba(0, 0, 0, 0.2);
	color-scheme: light;
}
.theme-dark {
	--accent: hsl(258, 88%, 66%);
	--background-primary: #1e1e1e; --background-primary-alt: #242424; --background-secondary: #262626; --background-secondary-alt: #1e1e1e;
	--background-modifier-border: #363636; --background-modifier-border-hover: #474747; --background-modifier-hover: rgba(255, 255, 255, 0.075);
	--background-modifier-active-hover: hsla(258, 88%, 66%, 0.15); --background-modifier-form-field: #2a2a2a;
	--text-normal: #dadada; --text-muted: #b3b3b3; --text-faint: #666666; --text-error: #fb464c; --text-on-accent: #ffffff;
	--text-accent: hsl(258, 88%, 74%); --interactive-accent: hsl(258, 88%, 66%); --interactive-normal: #363636;
	--code-background: #262626; --code-normal: #b3b3b3; --code-property: #a48cf6; --code-string: #7fbf7f; --code-value: #e5a55c; --code-punctuation: #808080;
	--tag-background: hsla(258, 88%, 66%, 0.15); --tag-color: hsl(258, 88%, 76%);
	--titlebar-background: #262626; --tab-background-active: #1e1e1e; --shadow: 0 2px 8px rgba(0,0,0,.4);
	--toggle-off: #4a4a4a; --input-shadow: inset 0 0 0 1px rgba(255,255,255,.1);
	--modal-backdrop: rgba(0, 0, 0, 0.55);
	color-scheme: dark;
}
body {
	--font-interface: "Inter", "Noto Sans CJK KR", "DejaVu Sans", sans-serif;
	--font-text: "Inter", "Noto Sans CJK KR", "DejaVu Sans", sans-serif;
	--font-monospace: "DejaVu Sans Mono", "Noto Sans Mono CJK KR", monospace;
	--font-ui-smaller: 12px; --font-ui-small: 13px; --font-ui-medium: 15px; --font-ui-large: 20px;
	--size-2-1: 2px; --size-2-2: 4px; --size-2-3: 6px; --size-4-1: 4px; --size-4-2: 8px; --size-4-3: 12px; --size-4-4: 16px; --size-4-5: 20px; --size-4-6: 24px; --size-4-8: 32px;
	--radius-s: 4px; --radius-m: 8px; --radius-l: 10px;
	font-family: var(--font-interface);
	/* Inter would draw => and -> as arrows, which code in a title is not. */
	font-feature-settings: "calt" 0;
	background: var(--background-primary);
	color: var(--text-normal);
	font-size: 14px;
}
.svg-icon { width: 18px; height: 18px; flex-shrink: 0; }
`;

// ---------------------------------------------------------------------------------------------
// (a) A session note in the reading view.

const CALLOUT_COLORS = { note: "8, 109, 221", info: "8, 109, 221", todo: "8, 109, 221", abstract: "0, 191, 188", summary: "0, 191, 188", tip: "0, 191, 188", success: "8, 185, 78", question: "236, 117, 0", warning: "236, 117, 0", failure: "233, 49, 71", danger: "233, 49, 71", bug: "233, 49, 71", example: "120, 82, 238", quote: "158, 158, 158" };
const CALLOUT_ICONS = { note: "pencil", info: "info", abstract: "clipboard-list", summary: "clipboard-list", example: "list", tip: "flame", quote: "text" };

/** Obsidian's Markdown: callouts (folded with `-`), wiki links, line breaks kept, JSON highlighted. */
function obsidianMarkdown() {
	const md = new MarkdownIt({ html: false, breaks: true, linkify: false, highlight: highlightCode });
	md.inline.ruler.before("link", "wikilink", (state, silent) => {
		if (!state.src.startsWith("[[", state.pos)) return false;
		const end = state.src.indexOf("]]", state.pos + 2);
		if (end < 0) return false;
		const inner = state.src.slice(state.pos + 2, end);
		if (inner.includes("\n")) return false;
		if (!silent) {
			const bar = inner.indexOf("|");
			const target = bar < 0 ? inner : inner.slice(0, bar);
			const token = state.push("wikilink", "a", 0);
			token.meta = { target, text: bar < 0 ? basename(target) : inner.slice(bar + 1) };
		}
		state.pos = end + 2;
		return true;
	});
	md.renderer.rules.wikilink = (tokens, i) => `<a class="internal-link" data-href="${escapeHtml(tokens[i].meta.target)}">${escapeHtml(tokens[i].meta.text)}</a>`;

	md.core.ruler.after("inline", "callouts", (state) => {
		const tokens = state.tokens;
		const open = [];
		for (let i = 0; i < tokens.length; i++) {
			const token = tokens[i];
			if (token.type === "blockquote_close") {
				token.meta = open.pop()?.meta ?? null;
				continue;
			}
			if (token.type !== "blockquote_open") continue;
			open.push(token);
			const inline = tokens[i + 2];
			if (tokens[i + 1]?.type !== "paragraph_open" || inline?.type !== "inline") continue;
			const [first, ...rest] = inline.content.split("\n");
			const m = /^\[!([\w-]+)\]([+-]?)\s*(.*)$/.exec(first ?? "");
			if (!m) continue;
			const type = m[1].toLowerCase();
			token.meta = { callout: { type, fold: m[2], title: m[3] || type[0].toUpperCase() + type.slice(1) } };
			if (rest.join("").trim() === "") {
				tokens.splice(i + 1, 3);
			} else {
				inline.content = rest.join("\n");
				inline.children = [];
				state.md.inline.parse(inline.content, state.md, state.env, inline.children);
			}
		}
	});
	md.renderer.rules.blockquote_open = (tokens, i, options, env, self) => {
		const callout = tokens[i].meta?.callout;
		if (!callout) return self.renderToken(tokens, i, options);
		const color = CALLOUT_COLORS[callout.type] ?? CALLOUT_COLORS.note;
		const title = `${icon(CALLOUT_ICONS[callout.type] ?? "pencil", "svg-icon callout-icon")}<span class="callout-title-inner">${md.renderInline(callout.title)}</span>`;
		const attrs = `class="callout${callout.fold ? " is-collapsible" : ""}" data-callout="${escapeHtml(callout.type)}" style="--callout-color: ${color}"`;
		if (!callout.fold) return `<div ${attrs}><div class="callout-title">${title}</div><div class="callout-content">`;
		return `<details ${attrs}${callout.fold === "+" ? " open" : ""}><summary class="callout-title">${title}${icon("chevron-down", "svg-icon callout-fold")}</summary><div class="callout-content">`;
	};
	md.renderer.rules.blockquote_close = (tokens, i, options, env, self) => {
		const callout = tokens[i].meta?.callout;
		if (!callout) return self.renderToken(tokens, i, options);
		return callout.fold ? "</div></details>" : "</div></div>";
	};
	return md;
}

/** JSON as Prism colours it in Obsidian: keys, strings, numbers and literals, punctuation. */
function highlightCode(code, lang) {
	if (lang !== "json") return "";
	const html = code.replace(/("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])|([^"\d{}[\],tfn-]+|.)/g, (all, str, colon, num, lit, punct) => {
		if (str) return colon ? `<span class="token property">${escapeHtml(str)}</span><span class="token punctuation">${escapeHtml(colon)}</span>` : `<span class="token string">${escapeHtml(str)}</span>`;
		if (num) return `<span class="token number">${num}</span>`;
		if (lit) return `<span class="token boolean">${lit}</span>`;
		if (punct) return `<span class="token punctuation">${escapeHtml(punct)}</span>`;
		return escapeHtml(all);
	});
	return `<pre class="language-json"><code class="language-json">${html}</code></pre>`;
}

const PROPERTY_ICONS = { tags: "tags", aliases: "forward" };

function propertyRow(key, value) {
	const isDate = typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value);
	const kind = PROPERTY_ICONS[key] ?? (Array.isArray(value) ? "list" : typeof value === "number" ? "hash" : isDate ? "clock" : "text");
	let shown;
	if (Array.isArray(value)) {
		const pill = key === "tags" ? "multi-select-pill is-tag" : "multi-select-pill";
		shown = `<div class="multi-select">${value.map((v) => `<span class="${pill}">${escapeHtml(v)}</span>`).join("")}</div>`;
	} else if (isDate) {
		shown = `<span class="metadata-input-text">${escapeHtml(value.replace("T", " "))}</span>`;
	} else {
		shown = `<span class="metadata-input-text${typeof value === "number" ? " is-number" : ""}">${escapeHtml(value)}</span>`;
	}
	return `<div class="metadata-property"><div class="metadata-property-key">${icon(kind, "svg-icon metadata-property-icon")}<span>${escapeHtml(key)}</span></div><div class="metadata-property-value">${shown}</div></div>`;
}

/** The vault's files as Obsidian's file explorer lists them: folders first, then files, by name. */
function fileTree(root, folder, active, depth = 0) {
	const entries = readdirSync(join(root, folder), { withFileTypes: true }).filter((e) => !e.name.startsWith("."));
	const byName = (a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base", numeric: true });
	const folders = entries.filter((e) => e.isDirectory()).sort(byName);
	const files = entries.filter((e) => e.isFile()).sort(byName);
	const pad = `style="padding-left: ${8 + depth * 17}px"`;
	let html = "";
	for (const f of folders) {
		const path = folder ? `${folder}/${f.name}` : f.name;
		const open = active.startsWith(`${path}/`);
		html += `<div class="tree-item nav-folder${open ? "" : " is-collapsed"}"><div class="tree-item-self nav-folder-title" ${pad}>${icon(open ? "chevron-down" : "chevron-right", "svg-icon collapse-icon")}<span>${escapeHtml(f.name)}</span></div>`;
		if (open) html += `<div class="tree-item-children">${fileTree(root, path, active, depth + 1)}</div>`;
		html += "</div>";
	}
	for (const f of files) {
		const path = folder ? `${folder}/${f.name}` : f.name;
		const ext = f.name.endsWith(".md") ? "" : f.name.slice(f.name.lastIndexOf(".") + 1);
		const name = ext ? f.name.slice(0, -ext.length - 1) : f.name.slice(0, -3);
		html += `<div class="tree-item nav-file"><div class="tree-item-self nav-file-title${path === active ? " is-active" : ""}" ${pad}><span class="nav-file-title-content">${escapeHtml(name)}</span>${ext ? `<span class="nav-file-tag">${escapeHtml(ext)}</span>` : ""}</div></div>`;
	}
	return html;
}

function notePage(notePath) {
	const text = readFileSync(join(vault, notePath), "utf8");
	const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
	const properties = fm ? parseYaml(fm[1]) : {};
	// Comments (%% … %%) are not shown in the reading view.
	const body = (fm ? text.slice(fm[0].length) : text).replace(/%%[\s\S]*?%%\n?/g, "");
	const rendered = obsidianMarkdown().render(body);
	const title = basename(notePath, ".md");
	const crumbs = dirname(notePath).split("/");
	// The plugin's status bar item after a sync that found nothing new (src/obsidian/status-bar.ts), at the demo's sync.
	const syncedAt = statSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state", "sync-state.json")).mtime;
	const statusText = `AI memory: synced ${String(syncedAt.getHours()).padStart(2, "0")}:${String(syncedAt.getMinutes()).padStart(2, "0")}`;
	return `<!doctype html><html><head><meta charset="utf-8"><style>${THEME}${NOTE_CSS}</style></head>
<body class="theme-light"><div class="app-container">
<div class="workspace-ribbon">${["messages-square", "search", "git-fork", "layout-dashboard", "calendar-days", "terminal"].map((n) => `<div class="side-dock-ribbon-action">${icon(n)}</div>`).join("")}
<div class="ribbon-bottom">${["vault", "help-circle", "settings"].map((n) => `<div class="side-dock-ribbon-action">${icon(n)}</div>`).join("")}</div></div>
<div class="workspace-split mod-left-split">
	<div class="workspace-tab-header-container"><div class="nav-header">${["folder-closed", "search", "bookmark"].map((n, i) => `<div class="nav-tab${i === 0 ? " is-active" : ""}">${icon(n)}</div>`).join("")}</div></div>
	<div class="nav-buttons-container">${["file-plus", "folder-plus", "arrow-up-narrow-wide", "chevrons-down-up"].map((n) => `<div class="clickable-icon">${icon(n)}</div>`).join("")}</div>
	<div class="nav-files-container">${fileTree(vault, "", notePath)}</div>
	<div class="vault-profile">${icon("chevron-down", "svg-icon")}<span>vault</span></div>
</div>
<div class="workspace-split mod-root">
	<div class="workspace-tab-header-container mod-top">
		<div class="workspace-tab-header is-active">${icon("file-text", "svg-icon tab-icon")}<span class="workspace-tab-header-inner-title">${escapeHtml(title)}</span>${icon("x", "svg-icon tab-close")}</div>
		<div class="workspace-tab-header-new-tab">${icon("plus")}</div>
	</div>
	<div class="view-header">
		<div class="view-header-nav-buttons">${icon("arrow-left")}${icon("arrow-right")}</div>
		<div class="view-header-title-container">${crumbs.map((c) => `<span class="view-header-breadcrumb">${escapeHtml(c)}</span><span class="view-header-breadcrumb-separator">/</span>`).join("")}<span class="view-header-title">${escapeHtml(title)}</span></div>
		<div class="view-actions">${icon("book-open")}${icon("more-vertical")}</div>
	</div>
	<div class="view-content"><div class="markdown-reading-view"><div class="markdown-preview-sizer">
		<div class="inline-title">${escapeHtml(title)}</div>
		<div class="metadata-container"><div class="metadata-properties-heading">${icon("chevron-down", "svg-icon")}<span>Properties</span></div>
		<div class="metadata-content">${Object.entries(properties).map(([k, v]) => propertyRow(k, v)).join("")}</div></div>
		<div class="markdown-rendered">${rendered}</div>
	</div></div></div>
	<div class="status-bar"><span>${escapeHtml(statusText)}</span></div>
</div>
</div></body></html>`;
}

const NOTE_CSS = `
.app-container { display: flex; min-height: 100vh; background: var(--background-primary); }
.workspace-ribbon { width: 44px; flex-shrink: 0; background: var(--background-secondary); border-right: 1px solid var(--background-modifier-border); display: flex; flex-direction: column; align-items: center; padding-top: 48px; gap: 4px; }
.ribbon-bottom { margin-top: auto; padding-bottom: 12px; display: flex; flex-direction: column; gap: 4px; }
.side-dock-ribbon-action, .clickable-icon { color: var(--text-muted); padding: 6px; border-radius: var(--radius-s); display: flex; }
.side-dock-ribbon-action:first-child { color: var(--interactive-accent); }
.mod-left-split { width: 290px; flex-shrink: 0; background: var(--background-secondary); border-right: 1px solid var(--background-modifier-border); display: flex; flex-direction: column; font-size: var(--font-ui-small); }
.mod-left-split .workspace-tab-header-container { height: 40px; display: flex; align-items: center; padding: 0 8px; border-bottom: 1px solid var(--background-modifier-border); background: var(--titlebar-background); }
.nav-header { display: flex; gap: 4px; }
.nav-tab { padding: 5px 7px; border-radius: var(--radius-s); color: var(--text-muted); display: flex; }
.nav-tab.is-active { background: var(--background-modifier-hover); color: var(--text-normal); }
.nav-tab .svg-icon { width: 16px; height: 16px; }
.nav-buttons-container { display: flex; justify-content: center; gap: 6px; padding: 8px 0 4px; }
.nav-buttons-container .svg-icon { width: 16px; height: 16px; }
.nav-files-container { padding: 4px 8px; flex: 1; }
.tree-item-self { display: flex; align-items: center; gap: 4px; padding: 3px 8px; border-radius: var(--radius-s); color: var(--text-muted); line-height: 1.35; min-height: 22px; }
.nav-folder-title { color: var(--text-normal); font-weight: 500; }
.nav-file-title-content { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.nav-file-title { padding-left: 24px; }
.nav-file-title.is-active { background: var(--background-modifier-active-hover); color: var(--text-normal); }
.collapse-icon { width: 14px; height: 14px; color: var(--text-faint); }
.nav-file-tag { margin-left: auto; font-size: 9px; font-weight: 700; letter-spacing: .05em; text-transform: uppercase; background: var(--background-modifier-hover); color: var(--text-muted); border-radius: 3px; padding: 1px 4px; }
.tree-item-children { border-left: 1px solid var(--background-modifier-border); margin-left: 15px; }
.tree-item-children .tree-item-self { padding-left: 8px !important; }
.tree-item-children .nav-file-title { padding-left: 14px !important; }
.tree-item-children .tree-item-children { margin-left: 14px; }
.vault-profile { display: flex; align-items: center; gap: 6px; padding: 10px 14px; border-top: 1px solid var(--background-modifier-border); color: var(--text-normal); font-weight: 500; }
.vault-profile .svg-icon { width: 14px; height: 14px; color: var(--text-muted); }
.mod-root { flex: 1; display: flex; flex-direction: column; min-width: 0; position: relative; }
.mod-top { height: 40px; display: flex; align-items: flex-end; padding: 0 8px; gap: 4px; background: var(--titlebar-background); border-bottom: 1px solid var(--background-modifier-border); }
.workspace-tab-header { display: flex; align-items: center; gap: 6px; max-width: 420px; padding: 0 10px; height: 32px; border-radius: var(--radius-m) var(--radius-m) 0 0; background: var(--tab-background-active); color: var(--text-normal); font-size: var(--font-ui-small); border: 1px solid var(--background-modifier-border); border-bottom: none; margin-bottom: -1px; }
.workspace-tab-header-inner-title { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tab-icon { width: 15px; height: 15px; color: var(--text-muted); }
.tab-close { width: 14px; height: 14px; color: var(--text-faint); }
.workspace-tab-header-new-tab { color: var(--text-muted); padding: 0 6px 6px; display: flex; }
.workspace-tab-header-new-tab .svg-icon { width: 16px; height: 16px; }
.view-header { height: 40px; display: flex; align-items: center; gap: 10px; padding: 0 12px; color: var(--text-muted); }
.view-header .svg-icon { width: 16px; height: 16px; }
.view-header-nav-buttons { display: flex; gap: 10px; }
.view-header-nav-buttons .svg-icon + .svg-icon { color: var(--text-faint); }
.view-header-title-container { flex: 1; text-align: center; font-size: var(--font-ui-small); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.view-header-breadcrumb { color: var(--text-faint); }
.view-header-breadcrumb-separator { color: var(--text-faint); margin: 0 6px; }
.view-header-title { color: var(--text-normal); }
.view-actions { display: flex; gap: 10px; }
.view-content { flex: 1; padding-bottom: 48px; }
.markdown-preview-sizer { max-width: 720px; margin: 0 auto; padding: 24px 32px 0; font-family: var(--font-text); font-size: 16px; line-height: 1.5; }
.inline-title { font-size: 2em; font-weight: 700; line-height: 1.2; letter-spacing: -0.015em; margin: 8px 0 16px; }
.metadata-container { margin-bottom: 28px; font-size: var(--font-ui-small); }
.metadata-properties-heading { display: flex; align-items: center; gap: 4px; font-weight: 600; color: var(--text-normal); font-size: var(--font-ui-medium); margin-bottom: 6px; }
.metadata-properties-heading .svg-icon { width: 14px; height: 14px; color: var(--text-faint); }
.metadata-property { display: flex; align-items: flex-start; gap: 4px; padding: 3px 0; border-bottom: 1px solid transparent; }
.metadata-property-key { width: 150px; flex-shrink: 0; display: flex; align-items: center; gap: 8px; color: var(--text-muted); padding: 3px 6px; }
.metadata-property-icon { width: 15px; height: 15px; color: var(--text-faint); }
.metadata-property-value { flex: 1; min-width: 0; padding: 3px 6px; color: var(--text-normal); overflow-wrap: anywhere; }
.metadata-input-text.is-number { font-variant-numeric: tabular-nums; }
.multi-select { display: flex; flex-wrap: wrap; gap: 4px; }
.multi-select-pill { background: var(--background-modifier-hover); border-radius: 12px; padding: 1px 10px; font-size: var(--font-ui-smaller); line-height: 18px; }
.multi-select-pill.is-tag { background: var(--tag-background); color: var(--tag-color); }
.markdown-rendered h1 { font-size: 1.8em; line-height: 1.25; margin: 0.2em 0 0.6em; font-weight: 700; letter-spacing: -0.015em; }
.markdown-rendered h2 { font-size: 1.5em; line-height: 1.3; margin: 1.4em 0 0.5em; font-weight: 650; padding-bottom: 4px; border-bottom: 1px solid var(--background-modifier-border); }
.markdown-rendered h3 { font-size: 1.25em; line-height: 1.3; margin: 1.2em 0 0.4em; font-weight: 600; }
.markdown-rendered p { margin: 0 0 1em; }
.markdown-rendered ul { padding-left: 1.6em; margin: 0 0 1em; }
.markdown-rendered li { margin: 2px 0; }
.markdown-rendered li::marker { color: var(--text-faint); }
.markdown-rendered strong { font-weight: 650; }
.markdown-rendered code { font-family: var(--font-monospace); font-size: 0.85em; background: var(--code-background); color: var(--code-normal); padding: 0.1em 0.3em; border-radius: var(--radius-s); }
.markdown-rendered pre { background: var(--code-background); border: 1px solid var(--background-modifier-border); border-radius: var(--radius-s); padding: 10px 14px; overflow-x: auto; margin: 0.5em 0 0.8em; line-height: 1.45; }
.markdown-rendered pre code { background: none; border: none; padding: 0; font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }
.token.property { color: var(--code-property); }
.token.string { color: var(--code-string); }
.token.number, .token.boolean { color: var(--code-value); }
.token.punctuation { color: var(--code-punctuation); }
.internal-link { color: var(--text-accent); text-decoration: underline; text-decoration-color: hsla(258, 88%, 66%, 0.4); text-underline-offset: 2px; }
.callout { --callout-color: 8, 109, 221; background: rgba(var(--callout-color), 0.1); border-radius: var(--radius-s); padding: 10px 14px 10px 16px; margin: 0.75em 0; overflow: hidden; }
.callout-title { display: flex; align-items: center; gap: 6px; color: rgb(var(--callout-color)); font-weight: 600; list-style: none; cursor: pointer; font-size: 15px; }
.callout-title::-webkit-details-marker { display: none; }
.callout-title-inner { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.callout-title-inner code { color: inherit; }
.callout-icon { width: 17px; height: 17px; }
.callout-fold { width: 16px; height: 16px; transition: none; transform: rotate(-90deg); flex-shrink: 0; }
details[open] > summary .callout-fold { transform: none; }
.callout-content { margin-top: 8px; font-size: 15px; }
.callout-content > :last-child { margin-bottom: 0; }
.callout-content p { margin: 0 0 0.4em; }
.status-bar { position: absolute; right: 0; bottom: 0; display: flex; gap: 16px; padding: 4px 12px; font-size: var(--font-ui-smaller); color: var(--text-muted); background: var(--background-secondary); border-top-left-radius: var(--radius-m); border: 1px solid var(--background-modifier-border); border-right: none; border-bottom: none; }
.status-bar span { display: flex; align-items: center; gap: 4px; }
`;

// ---------------------------------------------------------------------------------------------
// (b) The settings tab, the real class, in Obsidian's settings window.

async function settingsPage() {
	const entry = `
		import { Plugin } from "obsidian";
		import { migrateSettings } from "./src/core/settings";
		import { discoverProjects } from "./src/core/projects/project-discovery";
		import { SettingsTab } from "./src/obsidian/settings-tab";
		import { stubApp } from "./test/stubs/app";

		const input = JSON.parse(document.getElementById("input")!.textContent!);
		class DemoPlugin extends Plugin {}
		const app = stubApp();
		const plugin = new DemoPlugin(app, input.manifest);
		let settings = migrateSettings(input.settings).settings;
		const tab = new SettingsTab(app as never, plugin as never, {
			get: () => settings,
			save: async (s) => { settings = s; },
			discover: async () => discoverProjects(input.state),
			checkClaudeDir: async () => undefined,
		});
		tab.containerEl.classList.add("vertical-tab-content");
		document.querySelector(".vertical-tab-content-container")!.appendChild(tab.containerEl);
		tab.display();
	`;
	await esbuild.build({
		stdin: { contents: entry, resolveDir: repo, loader: "ts", sourcefile: "settings-page.ts" },
		bundle: true,
		format: "iife",
		platform: "browser",
		target: "chrome120",
		alias: { obsidian: join(repo, "test", "stubs", "obsidian.ts") },
		outfile: join(work, "settings.js"),
		logLevel: "warning",
	});
	const stateDir = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state");
	const state = JSON.parse(readFileSync(join(stateDir, "sync-state.json"), "utf8"));
	// The session records live in the files the state lists (one a project).
	state.sessions = Object.assign({}, ...(state.sessionFiles ?? []).map((name) => JSON.parse(readFileSync(join(stateDir, "sessions", name), "utf8"))));
	const input = {
		manifest: { ...JSON.parse(readFileSync(join(repo, "manifest.json"), "utf8")), dir: ".obsidian/plugins/ai-conversation-memory" },
		// What the demo syncs with: its project turned on, everything else as it comes.
		settings: { projects: [{ path: demoProject, enabled: true }] },
		state: { sessions: state.sessions },
	};
	const groups = [
		["Options", ["General", "Editor", "Files and links", "Appearance", "Hotkeys", "Keychain", "Core plugins", "Community plugins"]],
		["Core plugins", ["Backlinks", "Bases", "Canvas", "Command palette", "Daily notes", "File recovery", "Page preview", "Templates"]],
		["Community plugins", ["AI Conversation Memory"]],
	];
	return `<!doctype html><html><head><meta charset="utf-8"><style>${THEME}${SETTINGS_CSS}${readFileSync(join(repo, "styles.css"), "utf8")}</style></head>
<body class="theme-light"><div class="modal-bg"></div><div class="modal mod-settings">
<div class="modal-close-button">${icon("x")}</div>
<div class="vertical-tabs-container">
	<div class="vertical-tab-header">${groups
		.map(([name, items]) => `<div class="vertical-tab-header-group"><div class="vertical-tab-header-group-title">${name}</div><div class="vertical-tab-header-group-items">${items.map((item) => `<div class="vertical-tab-nav-item${item === "AI Conversation Memory" ? " is-active" : ""}">${escapeHtml(item)}</div>`).join("")}</div></div>`)
		.join("")}</div>
	<div class="vertical-tab-content-container"></div>
</div></div>
<script type="application/json" id="input">${JSON.stringify(input).replace(/</g, "\\u003c")}</script>
<script src="settings.js"></script></body></html>`;
}

const SETTINGS_CSS = `
body { background: var(--background-secondary); padding: 28px; box-sizing: border-box; min-height: 100vh; }
.theme-dark body, body.theme-dark { background: #141414; }
.modal-bg { position: fixed; inset: 0; background: var(--modal-backdrop); }
.modal.mod-settings { position: relative; max-width: 1120px; margin: 0 auto; background: var(--background-primary); border: 1px solid var(--background-modifier-border); border-radius: var(--radius-l); box-shadow: 0 10px 40px rgba(0,0,0,.18); overflow: hidden; }
.modal-close-button { position: absolute; top: 14px; right: 14px; color: var(--text-muted); display: flex; }
.vertical-tabs-container { display: flex; }
.vertical-tab-header { width: 230px; flex-shrink: 0; background: var(--background-secondary); padding: 18px 10px 24px; border-right: 1px solid var(--background-modifier-border); }
.vertical-tab-header-group { margin-bottom: 18px; }
.vertical-tab-header-group-title { color: var(--text-faint); font-size: var(--font-ui-smaller); font-weight: 600; letter-spacing: .02em; padding: 4px 10px 6px; }
.vertical-tab-nav-item { padding: 5px 10px; border-radius: var(--radius-s); color: var(--text-muted); font-size: var(--font-ui-small); margin-bottom: 1px; }
.vertical-tab-nav-item.is-active { background: var(--interactive-accent); color: var(--text-on-accent); font-weight: 500; }
.vertical-tab-content-container { flex: 1; min-width: 0; padding: 24px 44px 36px 36px; }
.setting-item { display: flex; align-items: center; gap: 24px; padding: 12px 0; border-top: 1px solid var(--background-modifier-border); }
.setting-item-heading { border-top: none; padding-top: 28px; padding-bottom: 8px; }
.vertical-tab-content > .setting-item-heading:first-child { padding-top: 4px; }
.setting-item-heading .setting-item-name { font-size: var(--font-ui-medium); font-weight: 600; }
.setting-item-heading + .setting-item { border-top: 1px solid var(--background-modifier-border); }
.setting-item-info { flex: 1 1 auto; min-width: 0; }
.setting-item-name { font-size: var(--font-ui-medium); color: var(--text-normal); line-height: 1.3; }
.setting-item-description { font-size: var(--font-ui-smaller); color: var(--text-muted); padding-top: 4px; line-height: 1.45; }
.setting-item-description:empty { display: none; }
.setting-item-control { flex: 0 0 auto; display: flex; align-items: center; justify-content: flex-end; gap: 10px; }
input[type="text"], input[type="number"], textarea, select { font-family: var(--font-interface); font-size: var(--font-ui-small); color: var(--text-normal); background: var(--background-modifier-form-field); border: 1px solid var(--background-modifier-border); border-radius: var(--radius-s); padding: 5px 9px; outline: none; box-sizing: border-box; }
input[type="text"], input[type="number"] { height: 30px; width: 220px; }
input[type="number"] { width: 110px; }
textarea { width: 300px; resize: vertical; line-height: 1.45; }
input::placeholder, textarea::placeholder { color: var(--text-faint); }
select { height: 30px; padding: 0 30px 0 10px; appearance: none; background-image: url("data:image/svg+xml;charset=US-ASCII,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%20width%3D%22292.4%22%20height%3D%22292.4%22%3E%3Cpath%20fill%3D%22%23888%22%20d%3D%22M287%2069.4a17.6%2017.6%200%200%200-13-5.4H18.4c-5%200-9.3%201.8-12.9%205.4A17.6%2017.6%200%200%200%200%2082.2c0%205%201.8%209.3%205.4%2012.9l128%20127.9c3.6%203.6%207.8%205.4%2012.8%205.4s9.2-1.8%2012.8-5.4L287%2095c3.5-3.5%205.4-7.8%205.4-12.8%200-5-1.9-9.2-5.5-12.8z%22%2F%3E%3C%2Fsvg%3E"); background-repeat: no-repeat; background-position: right 10px center; background-size: 8px; box-shadow: var(--input-shadow); border: none; }
button { font-family: var(--font-interface); font-size: var(--font-ui-small); color: var(--text-normal); background: var(--interactive-normal); border: none; border-radius: var(--radius-s); padding: 0 14px; height: 30px; box-shadow: var(--input-shadow); }
button.mod-cta { background: var(--interactive-accent); color: var(--text-on-accent); box-shadow: none; }
.checkbox-container { width: 40px; height: 22px; border-radius: 11px; background: var(--toggle-off); position: relative; flex-shrink: 0; cursor: pointer; }
.checkbox-container::after { content: ""; position: absolute; top: 2px; left: 2px; width: 18px; height: 18px; border-radius: 50%; background: #ffffff; box-shadow: 0 1px 2px rgba(0,0,0,.25); }
.checkbox-container.is-enabled { background: var(--interactive-accent); }
.checkbox-container.is-enabled::after { left: 20px; }
.ai-memory-projects { margin-bottom: 4px; }
.ai-memory-project > .setting-item .setting-item-name { font-weight: 600; }
.ai-memory-project-options .setting-item { padding: 9px 0; }
`;

// ---------------------------------------------------------------------------------------------
// (c) The Sessions view, the real class, on what a sync prepared.

/** A vault of 1,000 sessions: real transcripts under fresh ids, each moved to a day of the year before the demo's. */
function thousandVault() {
	const root = join(work, "thousand");
	const projects = join(root, "claude", "projects");
	const sources = [join(repo, "..", "shared", "corpus"), join(repo, "..", "..", "shared", "corpus"), join(repo, "examples", "claude-projects")].filter((d) => existsSync(d));
	const files = sources.flatMap((d) => readdirSync(d, { recursive: true }).map((f) => join(d, f))).filter((f) => f.endsWith(".jsonl") && !f.includes("subagents") && !basename(f).startsWith("agent-") && statSync(f).size < 400_000);
	const texts = files.map((f) => readFileSync(f, "utf8")).filter((t) => t.includes('"assistant"') && t.includes('"timestamp"'));
	const end = Date.parse("2026-11-29T12:00:00Z");
	for (let i = 0; i < 1000; i++) {
		const text = texts[i % texts.length];
		const first = /"timestamp":"([^"]+)"/.exec(text)[1];
		// Busier on weekdays and in recent months, as a person's year is.
		const daysBack = Math.floor(Math.pow((i * 7919) % 1000 / 1000, 1.6) * 360);
		const shift = end - daysBack * 86_400_000 - Date.parse(first) - ((i * 37) % 10) * 3_600_000;
		const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
		const oldId = /"sessionId":"([^"]+)"/.exec(text)?.[1];
		const body = (oldId ? text.split(oldId).join(id) : text)
			.replace(/"timestamp":"([^"]+)"/g, (_m, t) => `"timestamp":"${new Date(Date.parse(t) + shift).toISOString()}"`)
			.replace(/"cwd":"([^"]*)"/g, () => `"cwd":"/home/dev/${["shop-api", "web", "billing", "infra", "docs", "cli", "mobile"][i % 7]}"`)
			.replace(/"(uuid|parentUuid|messageId)":"([0-9a-f]{8})/g, (_m, key, head) => `"${key}":"${(parseInt(head, 16) ^ (i + 1)).toString(16).padStart(8, "0")}`)
			.replace(/"id":"msg_/g, `"id":"msg_${i}_`);
		const dir = join(projects, `-home-dev-p${i % 7}`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, `${id}.jsonl`), body.endsWith("\n") ? body : `${body}\n`);
	}
	const vaultDir = join(root, "vault");
	mkdirSync(vaultDir, { recursive: true });
	const sync = spawnSync(process.execPath, [join(repo, "dist", "cli.cjs"), "sync", "--vault", vaultDir, "--claude-dir", join(root, "claude")], { encoding: "utf8" });
	if (sync.status !== 0) throw new Error(`sync of the 1,000 sessions failed:\n${sync.stderr}`);
	process.stdout.write(`  1,000 sessions synced: ${sync.stdout.trim()}\n`);
	return vaultDir;
}

/** What the view would read (rows and search documents), read here by the real catalog. */
async function sessionsData(vaultDir) {
	const entry = `
		import { SessionCatalog } from "./src/node/session-catalog";
		const catalog = new SessionCatalog(process.argv[2]);
		void (async () => {
			const rows = await catalog.rows();
			const docs = await Promise.all(rows.map((r) => catalog.searchDoc(r.id)));
			process.stdout.write(JSON.stringify({ rows, docs }));
		})();
	`;
	const outfile = join(work, "sessions-data.cjs");
	await esbuild.build({ stdin: { contents: entry, resolveDir: repo, loader: "ts", sourcefile: "sessions-data.ts" }, bundle: true, platform: "node", format: "cjs", target: "node20", outfile, logLevel: "warning" });
	const run = spawnSync(process.execPath, [outfile, join(vaultDir, ".obsidian", "plugins", "ai-conversation-memory", "state")], { encoding: "utf8", maxBuffer: 1 << 30 });
	if (run.status !== 0) throw new Error(run.stderr);
	return run.stdout;
}

async function sessionsPage(name, data) {
	const entry = `
		import { SessionsView } from "./src/obsidian/sessions-view";
		import { stubApp } from "./test/stubs/app";
		const data = JSON.parse(document.getElementById("data")!.textContent!);
		const docs = new Map(data.docs.filter(Boolean).map((d: { id: string }) => [d.id, d]));
		const app = stubApp();
		const view = new SessionsView(app.workspace.getLeaf() as never, { source: () => ({ rows: async () => data.rows, searchDoc: async (id: string) => docs.get(id) }), prices: () => ({}), writeDashboard: async () => "" });
		(window as unknown as { ready: Promise<unknown> }).ready = (view as unknown as { open(p: Node): Promise<void> }).open(document.querySelector(".leaf")!).then(() => view.indexed);
		(window as unknown as { view: unknown }).view = view;
	`;
	await esbuild.build({ stdin: { contents: entry, resolveDir: repo, loader: "ts", sourcefile: "sessions-page.ts" }, bundle: true, format: "iife", platform: "browser", target: "chrome120", alias: { obsidian: join(repo, "test", "stubs", "obsidian.ts") }, outfile: join(work, `sessions-${name}.js`), logLevel: "warning" });
	return `<!doctype html><html><head><meta charset="utf-8"><style>${THEME}${SESSIONS_CSS}${readFileSync(join(repo, "styles.css"), "utf8")}</style></head>
<body class="theme-light"><div class="sidebar"><div class="leaf"></div></div>
<script type="application/json" id="data">${data.replace(/</g, "\\u003c")}</script>
<script src="sessions-${name}.js"></script></body></html>`;
}

const SESSIONS_CSS = `
body { background: var(--background-secondary); padding: 0; }
.sidebar { width: 760px; height: 900px; background: var(--background-secondary); border-left: 1px solid var(--background-modifier-border); display: flex; flex-direction: column; }
.leaf, .workspace-leaf-content { display: flex; flex-direction: column; flex: 1; min-height: 0; }
.view-header { height: 40px; display: flex; justify-content: flex-end; align-items: center; padding: 0 12px; gap: 8px; color: var(--text-muted); border-bottom: 1px solid var(--background-modifier-border); }
.view-header::before { content: "AI sessions"; margin-right: auto; color: var(--text-normal); font-size: var(--font-ui-small); font-weight: 600; }
.view-action::after { content: "⟳"; font-size: 16px; }
.view-content { flex: 1; min-height: 0; padding: 12px; box-sizing: border-box; }
input, select, button { font-family: var(--font-interface); font-size: var(--font-ui-small); color: var(--text-normal); background: var(--background-modifier-form-field); border: 1px solid var(--background-modifier-border); border-radius: var(--radius-s); padding: 4px 8px; height: 30px; box-sizing: border-box; }
input::placeholder { color: var(--text-faint); }
button { cursor: pointer; }
.acm-session-row { color: var(--text-normal); font-size: var(--font-ui-small); }
.acm-sessions-pictures { padding-bottom: 24px; }
`;

// ---------------------------------------------------------------------------------------------
// Chromium over the DevTools protocol, on a pipe (--remote-debugging-pipe: fd 3 in, fd 4 out).

function launchBrowser() {
	const profile = mkdtempSync(join(tmpdir(), "ai-memory-chromium-"));
	const child = spawn(
		chromium,
		["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--force-color-profile=srgb", "--allow-file-access-from-files", `--user-data-dir=${profile}`, "--remote-debugging-pipe", "about:blank"],
		{ stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
	);
	let stderr = "";
	child.stdio[2].on("data", (c) => (stderr += c));
	const toBrowser = child.stdio[3];
	const fromBrowser = child.stdio[4];
	let nextId = 1;
	const pending = new Map();
	const listeners = new Set();
	let buffer = "";
	fromBrowser.setEncoding("utf8");
	fromBrowser.on("data", (chunk) => {
		buffer += chunk;
		for (let end = buffer.indexOf("\0"); end >= 0; end = buffer.indexOf("\0")) {
			const message = JSON.parse(buffer.slice(0, end));
			buffer = buffer.slice(end + 1);
			if (message.id !== undefined) {
				const waiter = pending.get(message.id);
				pending.delete(message.id);
				if (message.error) waiter?.reject(new Error(`${waiter.method}: ${message.error.message}`));
				else waiter?.resolve(message.result);
			} else for (const listener of listeners) listener(message);
		}
	});
	child.on("exit", (code) => {
		for (const waiter of pending.values()) waiter.reject(new Error(`chromium exited (${code}): ${stderr.slice(-2000)}`));
	});
	const send = (method, params = {}, sessionId) =>
		new Promise((resolvePromise, reject) => {
			const id = nextId++;
			pending.set(id, { resolve: resolvePromise, reject, method });
			toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
		});
	const once = (method, sessionId) =>
		new Promise((resolvePromise) => {
			const listener = (m) => {
				if (m.method === method && m.sessionId === sessionId) {
					listeners.delete(listener);
					resolvePromise(m.params);
				}
			};
			listeners.add(listener);
		});
	const close = async () => {
		await send("Browser.close").catch(() => undefined);
		await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
		rmSync(profile, { recursive: true, force: true });
	};
	return { send, once, close };
}

/** Opens `file`, runs `prepare` in the page, and saves the whole page (its full height) as `png`. */
async function screenshot(browser, file, png, prepare, width = WIDTH) {
	const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
	const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
	const send = (method, params) => browser.send(method, params, sessionId);
	const evaluate = async (expression) => {
		const { result, exceptionDetails } = await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
		if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
		return result.value;
	};
	await send("Page.enable");
	await send("Runtime.enable");
	await send("Emulation.setDeviceMetricsOverride", { width, height: 900, deviceScaleFactor: 1, mobile: false });
	const loaded = browser.once("Page.loadEventFired", sessionId);
	await send("Page.navigate", { url: pathToFileURL(file).href });
	await loaded;
	await evaluate(prepare);
	await evaluate("document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))");
	const height = await evaluate("Math.ceil(document.documentElement.scrollHeight)");
	await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
	await evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
	const { data } = await send("Page.captureScreenshot", { format: "png" });
	writeFileSync(png, Buffer.from(data, "base64"));
	await browser.send("Target.closeTarget", { targetId });
	process.stdout.write(`  ${png.slice(repo.length + 1)} (${width}x${height}, ${(statSync(png).size / 1024).toFixed(0)} KiB)\n`);
}

// ---------------------------------------------------------------------------------------------

const notes = join(vault, "AI Conversations", "shop-api");
const note = readdirSync(notes).find((n) => n.includes("The cart total"));
if (!note) throw new Error(`no cart-total session note in ${notes}`);
writeFileSync(join(work, "note.html"), notePage(`AI Conversations/shop-api/${note}`));
writeFileSync(join(work, "settings.html"), await settingsPage());

// A tool call opened, as a click opens it; the rest stay folded as the note says.
const openToolCall = `document.querySelectorAll("details.callout").forEach((d) => { if (d.querySelector(".callout-title-inner").textContent.startsWith("Edit:")) d.open = true; })`;
// The projects are listed once the (asynchronous) discovery answered.
const projectsListed = `new Promise((resolve, reject) => { const t0 = Date.now(); (function poll() { if (document.querySelector(".ai-memory-project")) resolve(true); else if (Date.now() - t0 > 5000) reject(new Error("no projects listed")); else setTimeout(poll, 20); })(); })`;
const theme = (name) => `document.body.classList.remove("theme-light", "theme-dark"); document.body.classList.add("theme-${name}");`;

// The Sessions view on the demo and on 1,000 sessions.
writeFileSync(join(work, "sessions-demo.html"), await sessionsPage("demo", await sessionsData(vault)));
writeFileSync(join(work, "sessions-1000.html"), await sessionsPage("1000", await sessionsData(thousandVault())));
const viewReady = "window.ready";
const typeQuery = (q) => `${viewReady}.then(() => { const s = document.querySelector(".acm-sessions-search"); s.value = ${JSON.stringify(q)}; s.dispatchEvent(new Event("input")); document.querySelector(".acm-sessions-list").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true })); })`;
const pictures = `${viewReady}.then(() => document.querySelector('[data-tab="pictures"]').click())`;
// A picture tab is as tall as its charts: the sidebar grows to show them all.
const tall = `document.querySelector(".sidebar").style.height = "auto"; document.querySelector(".acm-sessions-pictures").style.overflow = "visible";`;

const browser = launchBrowser();
try {
	process.stdout.write("screenshots:\n");
	for (const name of ["light", "dark"]) {
		await screenshot(browser, join(work, "note.html"), join(out, `session-note-${name}.png`), `${theme(name)} ${openToolCall}`);
		await screenshot(browser, join(work, "settings.html"), join(out, `settings-${name}.png`), `${theme(name)} ${projectsListed}`);
		await screenshot(browser, join(work, "sessions-demo.html"), join(out, `sessions-demo-list-${name}.png`), `${theme(name)} ${typeQuery("product")}`, 760);
		await screenshot(browser, join(work, "sessions-demo.html"), join(out, `sessions-demo-pictures-${name}.png`), `${theme(name)} ${pictures}.then(() => { ${tall} })`, 760);
		await screenshot(browser, join(work, "sessions-1000.html"), join(out, `sessions-1000-list-${name}.png`), `${theme(name)} ${viewReady}`, 760);
		await screenshot(browser, join(work, "sessions-1000.html"), join(out, `sessions-1000-pictures-${name}.png`), `${theme(name)} ${pictures}.then(() => { ${tall} })`, 760);
	}
} finally {
	await browser.close();
	rmSync(work, { recursive: true, force: true });
}
