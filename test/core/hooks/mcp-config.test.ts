import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addCodexServer, addJsonServer, codexServerOf, codexTable, jsonServerOf, MCP_MARK, removeCodexServer, removeJsonServer } from "../../../src/core/hooks/mcp-config";

const entry = { command: "/usr/bin/node", args: ["/opt/ai memory/mcp.cjs", "mcp", "--vault", '/home/me/My "Vault"', ...MCP_MARK], env: { NODE_OPTIONS: "" } };
/** What an earlier version wrote: no env, so an inherited NODE_OPTIONS reached the server. */
const { env: _unset, ...older } = entry;
const stringContaining = (text: string): unknown => expect.stringContaining(text);
const ok = <T extends { ok: boolean }>(edit: T) => {
	expect(edit.ok, JSON.stringify(edit)).toBe(true);
	return edit as T & { ok: true; text: string | null; changed: boolean };
};

describe("MCP servers in JSON settings (Claude Code, Gemini CLI)", () => {
	it("adds the entry as each client writes it, keeps every other byte, and removing it gives the file back", () => {
		const user = '{\n\t"numStartups": 7,\n\t"mcpServers": {\n\t\t"github": { "command": "gh-mcp" }\n\t}\n}\n';
		const added = ok(addJsonServer(user, "ai-memory", entry, "claude"));
		expect(JSON.parse(added.text!)).toEqual({ numStartups: 7, mcpServers: { github: { command: "gh-mcp" }, "ai-memory": { type: "stdio", ...entry } } });
		expect(added.text!.startsWith('{\n\t"numStartups": 7,\n\t"mcpServers": {\n\t\t"github": { "command": "gh-mcp" }')).toBe(true);
		expect(jsonServerOf(added.text, "ai-memory")).toEqual(entry);
		expect(ok(addJsonServer(added.text, "ai-memory", entry, "claude")).changed).toBe(false);
		expect(ok(removeJsonServer(added.text, "ai-memory")).text).toBe(user);
		const gemini = ok(addJsonServer(null, "ai-memory", entry, "gemini"));
		expect(JSON.parse(gemini.text!)).toEqual({ mcpServers: { "ai-memory": entry } });
		expect(ok(removeJsonServer(gemini.text, "ai-memory", null)).text).toBeNull();
		// Comments (Gemini CLI reads them) stay.
		const commented = '{\n  // mine\n  "theme": "dark"\n}\n';
		expect(ok(removeJsonServer(ok(addJsonServer(commented, "ai-memory", entry, "gemini")).text, "ai-memory", commented)).text).toBe(commented);
	});

	it("an entry of ours without env (an earlier version's) gets NODE_OPTIONS emptied on reinstall, in place", () => {
		for (const shape of ["claude", "gemini"] as const) {
			const old = JSON.stringify({ theme: "dark", mcpServers: { "ai-memory": shape === "claude" ? { type: "stdio", ...older, env: {} } : older }, after: 1 }, null, 2);
			expect(jsonServerOf(old, "ai-memory")).toEqual({ ...older, env: {} });
			const upgraded = ok(addJsonServer(old, "ai-memory", entry, shape));
			expect(upgraded.changed).toBe(true);
			expect(JSON.parse(upgraded.text!)).toEqual({ theme: "dark", mcpServers: { "ai-memory": shape === "claude" ? { type: "stdio", ...entry } : entry }, after: 1 });
			expect(jsonServerOf(upgraded.text, "ai-memory")).toEqual(entry);
		}
	});

	it("an `mcpServers` that held only an older entry of ours goes with it on removal; one the user had stays, even emptied", () => {
		const old = JSON.stringify({ theme: "dark", mcpServers: { "ai-memory": older } }, null, 2);
		const upgraded = ok(addJsonServer(old, "ai-memory", entry, "gemini"));
		expect(JSON.parse(ok(removeJsonServer(upgraded.text!.replace('"dark"', '"light"'), "ai-memory", old)).text!)).toEqual({ theme: "light" });
		const theirs = JSON.stringify({ theme: "dark", mcpServers: {} }, null, 2);
		const added = ok(addJsonServer(theirs, "ai-memory", entry, "gemini"));
		expect(JSON.parse(ok(removeJsonServer(added.text!.replace('"dark"', '"light"'), "ai-memory", theirs)).text!)).toEqual({ theme: "light", mcpServers: {} });
	});

	it("never touches a server of the same name that is not ours, and refuses what it cannot edit safely", () => {
		const theirs = '{ "mcpServers": { "ai-memory": { "command": "their-server" } } }';
		expect(addJsonServer(theirs, "ai-memory", entry, "claude")).toMatchObject({ ok: false, reason: stringContaining("not ours") });
		expect(ok(removeJsonServer(theirs, "ai-memory")).text).toBe(theirs);
		expect(addJsonServer("{ nope", "ai-memory", entry, "claude")).toMatchObject({ ok: false, reason: stringContaining("not valid JSON") });
		expect(addJsonServer('{ "mcpServers": [] }', "ai-memory", entry, "claude")).toMatchObject({ ok: false, reason: stringContaining("not an object") });
		expect(addJsonServer('{ "mcpServers": {}, "mcpServers": {} }', "ai-memory", entry, "claude")).toMatchObject({ ok: false, reason: stringContaining("twice") });
	});

	it("any JSON object: install then uninstall gives back the same bytes", () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string().filter((k) => k !== "mcpServers" && k !== "__proto__"), fc.jsonValue()), fc.constantFrom(0, 2, "\t"), (value, indent) => {
				const text = `${JSON.stringify(value, null, indent)}\n`;
				const added = ok(addJsonServer(text, "ai-memory", entry, "claude"));
				expect(ok(removeJsonServer(added.text, "ai-memory", text)).text).toBe(text);
				expect(JSON.stringify(JSON.parse(ok(removeJsonServer(added.text, "ai-memory")).text!))).toBe(JSON.stringify(value));
			}),
			{ numRuns: 100 },
		);
	});
});

describe("MCP servers in Codex CLI's config.toml", () => {
	it("appends the table `codex mcp add` writes, reads it back, and removes it byte for byte", () => {
		const user = '# mine\nmodel = "o3"\n\n[profiles.x]\nmodel = "gpt"\n';
		const added = ok(addCodexServer(user, "ai-memory", entry));
		expect(added.text).toBe(`${user}\n[mcp_servers.ai-memory]\ncommand = "/usr/bin/node"\nargs = ["/opt/ai memory/mcp.cjs", "mcp", "--vault", "/home/me/My \\"Vault\\"", "--from", "ai-conversation-memory"]\nenv = { NODE_OPTIONS = "" }\n`);
		expect(codexServerOf(added.text, "ai-memory")).toEqual(entry);
		expect(ok(addCodexServer(added.text, "ai-memory", entry)).changed).toBe(false);
		expect(ok(removeCodexServer(added.text, "ai-memory")).text).toBe(user);
		for (const text of [null, "", 'model = "o3"', 'a = 1\r\nb = 2\r\n']) {
			const there = ok(addCodexServer(text, "ai-memory", entry)).text;
			expect(ok(removeCodexServer(there, "ai-memory", text ?? null)).text).toBe(text);
		}
		// An update replaces only our table; a table after it stays.
		const later = `${added.text}\n[profiles.y]\nmodel = "z"\n`;
		const moved = ok(addCodexServer(later, "ai-memory", { ...entry, command: "/opt/node" })).text!;
		expect(moved).toContain('command = "/opt/node"');
		expect(moved.endsWith('[profiles.y]\nmodel = "z"\n')).toBe(true);
		// An earlier version's table (no env) gets it, in place.
		const old = `${user}\n[mcp_servers.ai-memory]\ncommand = "/usr/bin/node"\nargs = ${JSON.stringify(entry.args).replace(/","/g, '", "')}\n\n[profiles.y]\nmodel = "z"\n`;
		expect(codexServerOf(old, "ai-memory")).toEqual({ ...older, env: {} });
		expect(ok(addCodexServer(old, "ai-memory", entry)).text).toBe(`${added.text}\n[profiles.y]\nmodel = "z"\n`);
		// Keys and values that need quoting read back as written.
		const odd = { ...entry, env: { "A.B": 'x "y"\\z', NODE_OPTIONS: "" } };
		expect(codexServerOf(ok(addCodexServer(null, "ai-memory", odd)).text, "ai-memory")).toEqual(odd);
	});

	it("leaves a server of that name that is not ours, and servers written in another form, as they are", () => {
		const theirs = '[mcp_servers.ai-memory]\ncommand = "their-server"\n';
		expect(addCodexServer(theirs, "ai-memory", entry)).toMatchObject({ ok: false, reason: stringContaining("not ours") });
		expect(ok(removeCodexServer(theirs, "ai-memory")).changed).toBe(false);
		for (const other of ['mcp_servers = { x = { command = "y" } }\n', '[mcp_servers]\nx.command = "y"\n', 'mcp_servers.x.command = "y"\n']) expect(addCodexServer(other, "ai-memory", entry)).toMatchObject({ ok: false, reason: stringContaining("codex mcp add") });
	});

	it("takes the env sub-table Codex writes when it saves its servers as part of our entry", () => {
		const codexSaved = `model = "o3"\n\n[mcp_servers.ai-memory]\ncommand = "/usr/bin/node"\nargs = ${JSON.stringify(entry.args).replace(/","/g, '", "')}\n\n[mcp_servers.ai-memory.env]\nNODE_OPTIONS = ""\n\n[mcp_servers.gh]\ncommand = "gh-mcp"\n`;
		expect(codexServerOf(codexSaved, "ai-memory")).toEqual(entry);
		// Already what install writes: left in Codex's layout.
		expect(ok(addCodexServer(codexSaved, "ai-memory", entry)).changed).toBe(false);
		const updated = ok(addCodexServer(codexSaved, "ai-memory", { ...entry, command: "/opt/node" })).text!;
		expect(updated).toBe(`model = "o3"\n\n[mcp_servers.ai-memory]\ncommand = "/opt/node"\nargs = ${JSON.stringify(entry.args).replace(/","/g, '", "')}\nenv = { NODE_OPTIONS = "" }\n\n[mcp_servers.gh]\ncommand = "gh-mcp"\n`);
		// Removing it takes the sub-table too: a left `[mcp_servers.ai-memory.env]` is a server with no command, which stops Codex.
		expect(ok(removeCodexServer(codexSaved, "ai-memory")).text).toBe('model = "o3"\n\n[mcp_servers.gh]\ncommand = "gh-mcp"\n');
	});

	it("reads a table line inside a multi-line string as text", () => {
		const user = 'note = """\n[mcp_servers.ai-memory]\nsay \\""" not the end\n"""\nother = \'\'\'\n[profiles.z]\n\'\'\'\n';
		const added = ok(addCodexServer(user, "ai-memory", entry)).text!;
		expect(added.startsWith(user)).toBe(true);
		expect(codexServerOf(added, "ai-memory")).toEqual(entry);
		expect(ok(removeCodexServer(added, "ai-memory", user)).text).toBe(user);
		expect(addCodexServer('s = """\nmcp_servers = 1\n"""\n', "ai-memory", entry).ok).toBe(true);
	});
});

describe("an mcpServers the user had before our install", () => {
	it("stays, empty, and the file comes back byte for byte, its comments too", () => {
		const user = '{\n  // theme\n  "theme": "GitHub", /* mine */\n  "mcpServers": {}\n}\n';
		const added = ok(addJsonServer(user, "ai-memory", entry, "gemini")).text;
		expect(ok(removeJsonServer(added, "ai-memory", user)).text).toBe(user);
		// Edited meanwhile: only our entry goes.
		const edited = added!.replace('"GitHub"', '"Dracula"');
		expect(ok(removeJsonServer(edited, "ai-memory", user)).text).toBe(user.replace('"GitHub"', '"Dracula"'));
	});
});

describe("round 49b: a file with nothing of ours", () => {
	it("removing with no backup (never installed) leaves the user's `{}` as it is", () => {
		for (const user of ["{}\n", '{"mcpServers": {}}\n', '{\n  // mine\n}\n']) expect(removeJsonServer(user, "ai-memory", null)).toEqual({ ok: true, text: user, changed: false });
	});

	it("a `__proto__` key is a key like any other: it neither hides nor fakes our server", () => {
		const ours = ok(addJsonServer(null, "ai-memory", entry, "claude")).text!;
		const fake = `{"__proto__": ${ours.trim()}, "mcpServers": {"__proto__": ${JSON.stringify({ "ai-memory": { type: "stdio", ...entry } })}}}\n`;
		expect(jsonServerOf(fake, "ai-memory")).toBeUndefined();
		const added = ok(addJsonServer(fake, "ai-memory", entry, "claude"));
		expect(jsonServerOf(added.text, "ai-memory")).toEqual(entry);
		expect(ok(removeJsonServer(added.text, "ai-memory", fake)).text).toBe(fake);
	});
});

describe("round 49b: a byte order mark", () => {
	it("is no part of the JSON: the server is added after it, read, and removed, the bytes back", () => {
		const user = '\uFEFF{\n  "numStartups": 3\n}\n';
		const added = ok(addJsonServer(user, "ai-memory", entry, "claude"));
		expect(added.text!.startsWith('\uFEFF{\n  "numStartups": 3,')).toBe(true);
		expect(jsonServerOf(added.text, "ai-memory")).toEqual(entry);
		expect(ok(addJsonServer(added.text, "ai-memory", entry, "claude")).changed).toBe(false);
		expect(ok(removeJsonServer(added.text, "ai-memory", user)).text).toBe(user);
		expect(ok(removeJsonServer(added.text, "ai-memory")).text).toBe(user);
	});
});

describe("round 49b: a byte order mark before Codex's config.toml", () => {
	it("a table of ours on the first line is found after the mark: replaced, not added twice, and removed", () => {
		const stale = { ...entry, args: ["/old/mcp.cjs", ...entry.args.slice(1)] };
		const user = `\uFEFF${codexTable("ai-memory", stale)}\n[tui]\nnotifications = true\n`;
		expect(codexServerOf(user, "ai-memory")).toEqual(stale);
		const added = ok(addCodexServer(user, "ai-memory", entry));
		expect(added.text!.startsWith("\uFEFF[mcp_servers.ai-memory]")).toBe(true);
		expect(added.text!.match(/\[mcp_servers\.ai-memory\]/g)).toHaveLength(1);
		expect(codexServerOf(added.text, "ai-memory")).toEqual(entry);
		expect(ok(removeCodexServer(added.text, "ai-memory")).text).toBe("\uFEFF\n[tui]\nnotifications = true\n");
		// Servers given inline behind the mark are still refused, not doubled.
		expect(addCodexServer('\uFEFFmcp_servers = { x = { command = "y" } }\n', "ai-memory", entry).ok).toBe(false);
	});
});
