import { besideBom, insertAt, isRecord, parseJson as parse, parseJsonObject, removeAt, sameJson } from "./json-edit";

/**
 * Our MCP server in each agent's user configuration, added and removed as text edits that keep
 * every other byte: Claude Code's `~/.claude.json` and Gemini CLI's `settings.json` hold
 * `"mcpServers": { "<name>": { … } }` (what `claude mcp add --scope user` and `gemini mcp add
 * --scope user` write), Codex CLI's `config.toml` a `[mcp_servers.<name>]` table (what `codex mcp
 * add` writes). An entry is ours when its arguments end with our mark; a server of the same name
 * that is not ours is never touched.
 */

/** What agents name our server: Claude Code lists its tools as `mcp__ai-memory__<tool>`. */
export const MCP_SERVER_NAME = "ai-memory";

/** The last argument of every server entry we write (the server ignores it), as the hooks carry theirs. */
export const MCP_MARK = ["--from", "ai-conversation-memory"] as const;

export interface McpEntry {
	command: string;
	args: string[];
	/** Set over the agent's own environment when it starts the server (an empty value clears one). */
	env: Record<string, string>;
}

export type ConfigEdit = { ok: true; text: string | null; changed: boolean } | { ok: false; reason: string };

/** Whether a configured server (its JSON value) is one we wrote. */
export function isOurEntry(value: unknown): boolean {
	const args = isRecord(value) && Array.isArray(value.args) ? value.args : [];
	return args.length >= 2 && args[args.length - 2] === MCP_MARK[0] && args[args.length - 1] === MCP_MARK[1];
}

/**
 * Adds (or updates) our server in a JSON settings file (text; null when there is none).
 * `shape` is what the agent writes itself: Claude Code adds `"type": "stdio"` and `"env": {}`.
 */
export function addJsonServer(text: string | null, name: string, entry: McpEntry, shape: "claude" | "gemini"): ConfigEdit {
	return besideBom(text, (body) => addTo(body, name, entry, shape));
}

function addTo(text: string | null, name: string, entry: McpEntry, shape: "claude" | "gemini"): ConfigEdit {
	const parsed = parseJsonConfig(text);
	if (!parsed.ok) return parsed;
	const env = Object.keys(entry.env).length > 0 ? { env: entry.env } : {};
	const value = shape === "claude" ? { type: "stdio", command: entry.command, args: entry.args, env: entry.env } : { command: entry.command, args: entry.args, ...env };
	const servers = isRecord(parsed.value) ? parsed.value.mcpServers : undefined;
	const current = isRecord(servers) ? servers[name] : undefined;
	if (current !== undefined && !isOurEntry(current)) return { ok: false, reason: `it has an MCP server named "${name}" that is not ours; rename or remove it, then install again; nothing was changed` };
	if (current !== undefined && JSON.stringify(current) === JSON.stringify(value)) return { ok: true, text: text ?? "", changed: false };
	const base = text === null || text.trim() === "" ? "{}\n" : text;
	const out = insertAt(base, ["mcpServers", name], value);
	return { ok: true, text: out, changed: out !== text };
}

/**
 * Removes our server; an `mcpServers` left empty goes too. `before` is the file as it was before
 * our install (null: there was none): when what is left means the same, those exact bytes.
 */
export function removeJsonServer(text: string | null, name: string, before?: string | null): ConfigEdit {
	return besideBom(text, (body, was) => removeFrom(body, name, was), before);
}

function removeFrom(text: string | null, name: string, before?: string | null): ConfigEdit {
	if (text === null) return { ok: true, text: null, changed: false };
	const parsed = parseJsonConfig(text);
	if (!parsed.ok) return parsed;
	const servers = isRecord(parsed.value) ? parsed.value.mcpServers : undefined;
	// No server of ours: the file is the user's as it is (with no backup, a `{}` of theirs was taken for the file our install made, and deleted).
	if (!isRecord(servers) || !isOurEntry(servers[name])) return { ok: true, text, changed: false };
	let out = text;
	// An `mcpServers` the file had before our install stays, even empty (it went, so the user's bytes never came back).
	const had = typeof before === "string" && (() => {
		const original = parseJsonConfig(before);
		const had = original.ok && isRecord(original.value) ? original.value.mcpServers : undefined;
		// One that held only an older entry of ours was ours, not the user's: left as `{}` it was.
		return had !== undefined && !(isRecord(had) && Object.keys(had).length === 1 && isOurEntry(had[name]));
	})();
	out = removeAt(out, Object.keys(servers).length === 1 && !had ? ["mcpServers"] : ["mcpServers", name]);
	if (before !== undefined) {
		if (before === null) {
			if (isRecord(parse(out)) && Object.keys(parse(out) as object).length === 0) return { ok: true, text: null, changed: true };
		} else {
			const original = parseJsonConfig(before);
			if (original.ok && sameJson(parse(out), original.value)) return { ok: true, text: before, changed: before !== text };
		}
	}
	return { ok: true, text: out, changed: out !== text };
}

/** Our server's entry in a JSON settings file, if there is one. */
export function jsonServerOf(text: string | null, name: string): McpEntry | undefined {
	const parsed = parseJsonConfig(text);
	if (!parsed.ok || !isRecord(parsed.value) || !isRecord(parsed.value.mcpServers)) return undefined;
	const entry = parsed.value.mcpServers[name];
	if (!isOurEntry(entry) || !isRecord(entry) || typeof entry.command !== "string") return undefined;
	const env = isRecord(entry.env) ? Object.fromEntries(Object.entries(entry.env).filter((e): e is [string, string] => typeof e[1] === "string")) : {};
	return { command: entry.command, args: (entry.args as unknown[]).filter((a): a is string => typeof a === "string"), env };
}

function parseJsonConfig(text: string | null): { ok: true; value: unknown } | { ok: false; reason: string } {
	// Gemini CLI reads comments in its settings; Claude Code's file has none, and keeps none we would add.
	return parseJsonObject(text, "mcpServers", { comments: true });
}

// ---- Codex CLI's config.toml ----

/** `[mcp_servers.ai-memory]` and its quoted forms, or one of its sub-tables (`[mcp_servers.ai-memory.env]`, group 1); a line of its own. */
function tableHeader(name: string): RegExp {
	const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
	return new RegExp(`^[ \\t]*\\[[ \\t]*mcp_servers[ \\t]*\\.[ \\t]*(?:${escaped}|"${escaped}"|'${escaped}')[ \\t]*((?:\\.[^\\]]*)?)\\][ \\t]*(?:#.*)?$`);
}

/**
 * Which lines start inside a multi-line string (`"""…"""`, `'''…'''`): a `[table]` line there is text,
 * not a table (an `instructions` string quoting one ended our table early, or was taken for it).
 * One pass over the characters.
 */
function insideStrings(lines: readonly string[]): boolean[] {
	const inside: boolean[] = [];
	let open: '"""' | "'''" | undefined;
	for (const line of lines) {
		inside.push(open !== undefined);
		for (let i = 0; i < line.length; ) {
			if (open === "'''") {
				const at = line.indexOf(open, i);
				if (at < 0) break;
				for (i = at + 3; line[i] === "'"; i++);
				open = undefined;
			} else if (open === '"""') {
				if (line[i] === "\\") i += 2;
				else if (line.startsWith(open, i)) {
					for (i += 3; line[i] === '"'; i++);
					open = undefined;
				} else i++;
			} else if (line[i] === "#") break;
			else if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
				open = line.startsWith('"""', i) ? '"""' : "'''";
				i += 3;
			} else if (line[i] === '"') {
				for (i++; i < line.length && line[i] !== '"'; i += line[i] === "\\" ? 2 : 1);
				i++;
			} else if (line[i] === "'") {
				const at = line.indexOf("'", i + 1);
				i = at < 0 ? line.length : at + 1;
			} else i++;
		}
	}
	return inside;
}

/** A TOML basic string. */
function tomlString(value: string): string {
	let out = "";
	for (const c of value) {
		const code = c.charCodeAt(0);
		out += c === "\\" || c === '"' ? `\\${c}` : code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0")}` : c;
	}
	return `"${out}"`;
}

/** A TOML key: bare when it can be. */
function tomlKey(key: string): string {
	return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/**
 * Our table as Codex writes one (`codex mcp add`): `command`, `args`, and `env` inline (`codex mcp
 * add --env` writes a `[mcp_servers.<name>.env]` table instead; the inline form keeps ours one table).
 */
export function codexTable(name: string, entry: McpEntry): string {
	const pairs = Object.entries(entry.env).map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`);
	const env = pairs.length > 0 ? `env = { ${pairs.join(", ")} }\n` : "";
	return `[mcp_servers.${name}]\ncommand = ${tomlString(entry.command)}\nargs = [${entry.args.map(tomlString).join(", ")}]\n${env}`;
}

interface TomlBlock {
	/** Line ranges (the header, and the first line after the table) of our table and its sub-tables, in file order. */
	ranges: { start: number; end: number; main: boolean; sub: string }[];
	ours: boolean;
}

/** Where our table and its sub-tables are, whether they are ours, or why the file cannot be edited safely. */
function findTable(lines: readonly string[], name: string): { ok: true; block?: TomlBlock } | { ok: false; reason: string } {
	const header = tableHeader(name);
	const quoted = insideStrings(lines);
	const isTable = (i: number) => !quoted[i] && /^[ \t]*\[/.test(lines[i]!);
	// Servers given another way (`mcp_servers = {…}`, `[mcp_servers]` with dotted keys): a table of ours added beside them would make the file invalid.
	const other = lines.findIndex((l, i) => !quoted[i] && (/^[ \t]*mcp_servers[ \t]*(?:=|\.)/.test(l) || /^[ \t]*\[[ \t]*mcp_servers[ \t]*\][ \t]*(?:#.*)?$/.test(l) || /^[ \t]*\[\[[ \t]*mcp_servers\b/.test(l)));
	if (other >= 0) return { ok: false, reason: `its line ${other + 1} defines mcp_servers in a form this installer does not edit; add the server with \`codex mcp add\`, or by hand; nothing was changed` };
	// Codex writes an entry's `env` as a sub-table of its own (`[mcp_servers.<name>.env]`) when it
	// saves its servers (`codex mcp add` of another one): it goes with the table, or an uninstall left
	// a server with no command, which Codex refuses at its start.
	const ranges: TomlBlock["ranges"] = [];
	for (let at = 0; at < lines.length; at++) {
		const match = quoted[at] ? null : header.exec(lines[at]!);
		if (!match) continue;
		let end = at + 1;
		while (end < lines.length && !isTable(end)) end++;
		// Trailing blank lines and comments belong to whatever comes next.
		while (end > at + 1 && /^[ \t]*(?:#.*)?$/.test(lines[end - 1]!)) end--;
		ranges.push({ start: at, end, main: match[1] === "", sub: match[1]!.replace(/[ \t"']/g, "") });
		at = end - 1;
	}
	if (ranges.length === 0) return { ok: true };
	const main = ranges.find((r) => r.main);
	const ours = main !== undefined && lines.slice(main.start + 1, main.end).join("\n").includes(`${tomlString(MCP_MARK[0])}, ${tomlString(MCP_MARK[1])}]`);
	return { ok: true, block: { ranges, ours } };
}

/**
 * The lines with our table replaced by `table` (undefined: removed) and its sub-tables removed,
 * each removed one with the blank line the install put before it.
 */
function editRanges(lines: readonly string[], ranges: TomlBlock["ranges"], table?: string[]): string[] {
	const kept = [...lines];
	for (const { start, end, main } of [...ranges].reverse()) {
		if (main && table) {
			kept.splice(start, end - start, ...table);
			continue;
		}
		kept.splice(start, end - start);
		if (start > 0 && kept[start - 1] === "" && (start === kept.length - 1 || kept[start] === "")) kept.splice(start - 1, 1);
	}
	return kept;
}

/**
 * Adds (or updates) our server in Codex's `config.toml` (text; null when there is none). After a
 * byte order mark, which stays: before it, a table of ours on the first line was not found, and a
 * second one added made the file invalid TOML, which stops Codex at its start.
 */
export function addCodexServer(text: string | null, name: string, entry: McpEntry): ConfigEdit {
	return besideBom(text, (body) => addCodexTo(body, name, entry));
}

function addCodexTo(text: string | null, name: string, entry: McpEntry): ConfigEdit {
	const source = text ?? "";
	const eol = source.includes("\r\n") ? "\r\n" : "\n";
	const lines = source.split(/\r?\n/);
	const found = findTable(lines, name);
	if (!found.ok) return found;
	const table = codexTable(name, entry).replace(/\n/g, eol);
	if (found.block) {
		if (!found.block.ours) return { ok: false, reason: `it has an MCP server named "${name}" that is not ours; rename or remove it, then install again; nothing was changed` };
		// The same entry in Codex's own layout stays as Codex wrote it.
		if (JSON.stringify(codexServerOf(text, name)) === JSON.stringify(entry)) return { ok: true, text: source, changed: false };
		const out = editRanges(lines, found.block.ranges, table.split(eol).slice(0, -1)).join(eol);
		return { ok: true, text: out, changed: out !== source };
	}
	const gap = source === "" ? "" : source.endsWith("\n") ? eol : `${eol}${eol}`;
	return { ok: true, text: `${source}${gap}${table}`, changed: true };
}

/** Removes our table; the file as it was before the install (`before`, null: none) when the rest is the same. */
export function removeCodexServer(text: string | null, name: string, before?: string | null): ConfigEdit {
	return besideBom(text, (body, was) => removeCodexFrom(body, name, was), before);
}

function removeCodexFrom(text: string | null, name: string, before?: string | null): ConfigEdit {
	if (text === null) return { ok: true, text: null, changed: false };
	const eol = text.includes("\r\n") ? "\r\n" : "\n";
	const lines = text.split(/\r?\n/);
	const found = findTable(lines, name);
	if (!found.ok || !found.block?.ours) return found.ok ? { ok: true, text, changed: false } : found;
	const out = editRanges(lines, found.block.ranges).join(eol);
	if (before === null && out.trim() === "") return { ok: true, text: null, changed: true };
	if (typeof before === "string" && out.trimEnd() === before.trimEnd()) return { ok: true, text: before, changed: before !== text };
	return { ok: true, text: out, changed: out !== text };
}

/** Our server's entry in Codex's `config.toml`, if there is one (its arguments as written). */
export function codexServerOf(text: string | null, name: string): McpEntry | undefined {
	if (text === null) return undefined;
	const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
	const found = findTable(lines, name);
	if (!found.ok || !found.block?.ours) return undefined;
	const bodyOf = (r: { start: number; end: number }) => lines.slice(r.start + 1, r.end);
	const body = bodyOf(found.block.ranges.find((r) => r.main)!);
	// `env` inline, as we write it, or as the sub-table Codex writes.
	const envTable = found.block.ranges.find((r) => r.sub === ".env");
	const command = body.map((l) => /^[ \t]*command[ \t]*=[ \t]*("(?:[^"\\]|\\.)*")/.exec(l)?.[1]).find(Boolean);
	const args = body.map((l) => /^[ \t]*args[ \t]*=[ \t]*(\[.*\])[ \t]*$/.exec(l)?.[1]).find(Boolean);
	const envLine = envTable ? bodyOf(envTable).join(", ") : (body.map((l) => /^[ \t]*env[ \t]*=[ \t]*\{(.*)\}[ \t]*$/.exec(l)?.[1]).find((v) => v !== undefined) ?? "");
	try {
		// Basic strings only, as codexTable writes them: their escapes are JSON's.
		const env = Object.fromEntries([...envLine.matchAll(/([A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*")[ \t]*=[ \t]*("(?:[^"\\]|\\.)*")/g)].map((m) => [m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : m[1]!, JSON.parse(m[2]!) as string]));
		return command && args ? { command: JSON.parse(command) as string, args: JSON.parse(args) as string[], env } : undefined;
	} catch {
		return undefined;
	}
}
