import { describe, expect, it } from "vitest";
import { HOOK_EVENTS, installedHooks, installHooks, uninstallHooks, type HookEvent } from "../../../src/core/hooks/hook-settings";

const commands = Object.fromEntries(HOOK_EVENTS.map((e) => [e, `"/usr/bin/node" "/opt/ai-memory/cli.cjs" hook ${e} --vault "/home/me/Vault" --from ai-conversation-memory`])) as Record<HookEvent, string>;

const userFiles: [string, string | null][] = [
	["no file", null],
	["an empty object", "{}\n"],
	["other keys, four-space indent, inline arrays", `{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(npm test)"]}\n}\n`],
	[
		"the user's own hooks, on the same events too",
		`{\n  "hooks": {\n    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}],\n    "SessionStart": [{"hooks": [{"type": "command", "command": "echo mine"}]}]\n  },\n  "env": {"A": "1"}\n}\n`,
	],
	["CRLF and tabs", '{\r\n\t"model": "sonnet"\r\n}\r\n'],
];

describe("Claude Code hook settings", () => {
	it.each(userFiles)("install then uninstall gives back the file as the user had it: %s", (_name, before) => {
		const installed = installHooks(before, commands, { SessionEnd: 10 });
		if (!installed.ok) throw new Error(installed.reason);
		expect(installed.changed).toBe(true);
		expect(installedHooks(installed.text)).toEqual(commands);
		// Every other key and hook is still there.
		const data = JSON.parse(installed.text) as Record<string, unknown>;
		const original = JSON.parse(before ?? "{}") as Record<string, unknown>;
		for (const key of Object.keys(original).filter((k) => k !== "hooks")) expect(data[key]).toEqual(original[key]);
		if (before?.includes("echo mine")) expect(installed.text).toContain("echo mine");

		const again = installHooks(installed.text, commands, { SessionEnd: 10 });
		expect(again).toEqual({ ok: true, text: installed.text, changed: false });

		const removed = uninstallHooks(installed.text, before);
		expect(removed).toEqual({ ok: true, text: before, changed: true });
	});

	it("removes only ours when the user changed the file meanwhile, and keeps their change", () => {
		const installed = installHooks(userFiles[3]![1], commands);
		if (!installed.ok) throw new Error(installed.reason);
		const edited = installed.text.replace('"A": "1"', '"A": "2"');
		const removed = uninstallHooks(edited, userFiles[3]![1]);
		if (!removed.ok || removed.text === null) throw new Error("expected text");
		expect(installedHooks(removed.text)).toEqual({});
		expect(JSON.parse(removed.text)).toEqual({ ...JSON.parse(userFiles[3]![1]!), env: { A: "2" } });
	});

	it("replaces an older install of ours (moved vault or CLI) instead of adding a second", () => {
		const old = installHooks(null, Object.fromEntries(HOOK_EVENTS.map((e) => [e, `node /old/cli.cjs hook ${e} --vault /old/Vault --from ai-conversation-memory`])) as Record<HookEvent, string>);
		if (!old.ok) throw new Error(old.reason);
		const now = installHooks(old.text, commands);
		if (!now.ok) throw new Error(now.reason);
		expect(installedHooks(now.text)).toEqual(commands);
		expect(now.text).not.toContain("/old/cli.cjs");
	});

	it("stops on invalid JSON with the line, and changes nothing", () => {
		const broken = '{\n  "model": "opus",\n  "hooks": {\n}\n,}';
		expect(installHooks(broken, commands)).toEqual({ ok: false, reason: expect.stringMatching(/not valid JSON \(\w+ at line \d\); nothing was changed/) as unknown });
		expect(uninstallHooks(broken)).toMatchObject({ ok: false });
		expect(installHooks('{"hooks": []}', commands)).toEqual({ ok: false, reason: 'its "hooks" is not an object; nothing was changed' });
	});
});

describe("what is not ours, and what cannot be edited", () => {
	it("keeps a user's command that ends with our mark but has not our shape (no vault after the event)", () => {
		const theirs = ["/usr/local/bin/notify hook session-end --from ai-conversation-memory", "logger -t audit hook fired --from ai-conversation-memory"];
		const before = JSON.stringify({ hooks: { SessionEnd: [{ hooks: theirs.map((command) => ({ type: "command", command })) }] } }, null, 2);
		const installed = installHooks(before, commands);
		if (!installed.ok) throw new Error(installed.reason);
		for (const command of theirs) expect(installed.text).toContain(command);
		const removed = uninstallHooks(installed.text, null);
		if (!removed.ok) throw new Error(removed.reason);
		for (const command of theirs) expect(removed.text).toContain(command);
	});

	it("refuses a matcher group that holds \"hooks\" twice (only the last counts), at once", () => {
		const group = `{"hooks": [{"type": "command", "command": "echo mine-a"}], "hooks": [{"type": "command", "command": "echo mine-b"}, {"type": "command", "command": ${JSON.stringify(commands.SessionEnd)}}]}`;
		const text = `{\n  "hooks": {\n    "SessionEnd": [\n      ${group}\n    ]\n  }\n}\n`;
		for (const result of [installHooks(text, commands), uninstallHooks(text, null)]) expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/"hooks"\."SessionEnd"\.(?:.*)"hooks" twice/) as unknown });
	});
});

describe("the user's formatting of what is not ours", () => {
	const compact = `{\n  "model": "opus",\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }],\n    "SessionStart": [{ "hooks": [{ "type": "command", "command": "echo mine" }] }]\n  }\n}\n`;

	it("an entry written on one line stays on its line, on install and on uninstall after an unrelated edit", () => {
		const installed = installHooks(compact, commands);
		if (!installed.ok) throw new Error(installed.reason);
		expect(installed.text).toContain(`\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }],\n`);
		// Our group goes on the user's one-line list, in one line too.
		expect(installed.text).toContain(`\n    "SessionStart": [{ "hooks": [{ "type": "command", "command": "echo mine" }] },{"hooks":[{"type":"command","command":${JSON.stringify(commands.SessionStart)}}]}],\n`);
		// Our new events are indented as the file is.
		expect(installed.text).toContain(`\n    "UserPromptSubmit": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n`);
		// Every line of the user's file is still there, byte for byte, apart from the one we added to.
		const lines = installed.text.split("\n");
		for (const line of compact.split("\n").filter((l) => !l.includes("echo mine"))) expect(lines).toContain(line);

		const edited = installed.text.replace('"opus"', '"sonnet"');
		const removed = uninstallHooks(edited, compact);
		expect(removed).toEqual({ ok: true, text: compact.replace('"opus"', '"sonnet"'), changed: true });
	});

	it("a file on one line stays on one line", () => {
		const oneLine = '{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}';
		const installed = installHooks(oneLine, commands);
		if (!installed.ok) throw new Error(installed.reason);
		expect(installed.text).not.toContain("\n");
		expect(installedHooks(installed.text)).toEqual(commands);
		expect(uninstallHooks(installed.text.replace("opus", "haiku"))).toEqual({ ok: true, text: oneLine.replace("opus", "haiku"), changed: true });
	});

	it("property test: install then uninstall after an edit elsewhere is that edit alone", async () => {
		const fc = (await import("fast-check")).default;
		const user = fc.record({ model: fc.string(), hooks: fc.dictionary(fc.constantFrom("Stop", "SessionStart", "PreToolUse", "PreCompact"), fc.array(fc.record({ hooks: fc.array(fc.record({ type: fc.constant("command"), command: fc.string() }), { maxLength: 2 }) }), { minLength: 1, maxLength: 2 }), { minKeys: 1 }) });
		fc.assert(
			fc.property(user, fc.constantFrom(0, 2, "\t"), (value, indent) => {
				const text = `${JSON.stringify(value, null, indent)}\n`;
				const installed = installHooks(text, commands);
				if (!installed.ok) throw new Error(installed.reason);
				const marker = JSON.stringify(value.model);
				const edited = installed.text.replace(`"model": ${marker}`, `"model": "EDITED"`).replace(`"model":${marker}`, `"model":"EDITED"`);
				const removed = uninstallHooks(edited);
				if (!removed.ok || removed.text === null) throw new Error("expected text");
				expect(removed.text).toBe(text.replace(`"model": ${marker}`, `"model": "EDITED"`).replace(`"model":${marker}`, `"model":"EDITED"`));
			}),
			{ numRuns: 300 },
		);
	});
});

describe("fuzz: settings.json as people leave it", () => {
	it("any text or JSON value gets an edit or a reason, never a throw, and a refused edit changes nothing", async () => {
		const fc = (await import("fast-check")).default;
		const text = fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ hooks: v })), fc.jsonValue().map((v) => JSON.stringify({ hooks: { SessionStart: v } })));
		fc.assert(
			fc.property(text, (t) => {
				const install = installHooks(t, commands);
				if (install.ok) expect(installHooks(install.text, commands)).toMatchObject({ ok: true, changed: false });
				const uninstall = uninstallHooks(t);
				expect(typeof uninstall.ok).toBe("boolean");
			}),
			{ numRuns: 1000 },
		);
	});
});

describe("hooks the user's file had before our install", () => {
	it("an event list that held only an older install of ours is no list of the user's: uninstall takes it, and `hooks` with it (round 49b left `[]`)", () => {
		const oldOurs = (e: string) => `node /old/cli.cjs hook ${e} --vault /old/Vault --from ai-conversation-memory`;
		const user = `{\n  "model": "opus",\n  "hooks": {\n    "SessionStart": [{"hooks": [{"type": "command", "command": "${oldOurs("session-start")}"}]}]\n  }\n}\n`;
		const installed = installHooks(user, commands);
		if (!installed.ok) throw new Error(installed.reason);
		const edited = installed.text.replace('"opus"', '"sonnet"');
		const removed = uninstallHooks(edited, user);
		if (!removed.ok || removed.text === null) throw new Error("expected text");
		expect(JSON.parse(removed.text)).toEqual({ model: "sonnet" });
		// Beside a list of the user's, the other list goes and theirs stays, as does an empty list they had.
		const mixed = `{\n  "hooks": {\n    "SessionStart": [{"hooks": [{"type": "command", "command": "${oldOurs("session-start")}"}]}],\n    "PreToolUse": [],\n    "Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]\n  },\n  "model": "opus"\n}\n`;
		const both = installHooks(mixed, commands);
		if (!both.ok) throw new Error(both.reason);
		const left = uninstallHooks(both.text.replace('"opus"', '"sonnet"'), mixed);
		if (!left.ok || left.text === null) throw new Error("expected text");
		expect(JSON.parse(left.text)).toEqual({ hooks: { PreToolUse: [], Stop: [{ hooks: [{ type: "command", command: "echo mine" }] }] }, model: "sonnet" });
	});

	it("an empty hooks object or event list stays, so the file comes back byte for byte after edits elsewhere", () => {
		const user = '{\n  "hooks": {\n    "SessionStart": []\n  },\n  "model": "opus"\n}\n';
		const installed = installHooks(user, commands);
		if (!installed.ok) throw new Error(installed.reason);
		const edited = installed.text.replace('"opus"', '"sonnet"');
		const removed = uninstallHooks(edited, user);
		expect(removed.ok && removed.text).toBe(user.replace('"opus"', '"sonnet"'));
	});
});

describe("round 49b: a file with nothing of ours", () => {
	it("uninstalling with no backup (never installed) leaves the user's `{}` and `\"hooks\": {}` as they are", () => {
		for (const user of ["{}\n", '{"hooks":{}}', '{\n  "hooks": {},\n  "model": "opus"\n}\n'])
			for (const before of [null, undefined]) expect(uninstallHooks(user, before)).toEqual({ ok: true, text: user, changed: false });
	});

	it("a `__proto__` key is a key like any other: it neither hides nor fakes our hooks", () => {
		const fake = `{"__proto__": {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": ${JSON.stringify(commands.SessionStart)}}]}]}}}\n`;
		expect(installedHooks(fake)).toEqual({});
		const user = '{\n  "__proto__": {"model": "x"},\n  "model": "opus"\n}\n';
		const installed = installHooks(user, commands);
		if (!installed.ok) throw new Error(installed.reason);
		expect(installedHooks(installed.text)).toEqual(commands);
		const removed = uninstallHooks(installed.text.replace('"opus"', '"sonnet"'), user);
		expect(removed.ok && removed.text).toBe(user.replace('"opus"', '"sonnet"'));
	});
});

describe("round 49b: a file of blanks", () => {
	it.each(["\uFEFF", "\uFEFF\n", "  \n", "\r\n"])("is installed into as an empty file, and the result is JSON (%j)", (user) => {
		const installed = installHooks(user, commands);
		if (!installed.ok) throw new Error(installed.reason);
		expect(installedHooks(installed.text)).toEqual(commands);
		// Their mark stays first; after it, JSON.
		expect(() => JSON.parse(installed.text.replace(/^\uFEFF/, "")) as unknown).not.toThrow();
		expect(installHooks(installed.text, commands)).toMatchObject({ ok: true, changed: false });
		const removed = uninstallHooks(installed.text, user);
		expect(removed.ok && removed.text).toBe(user);
	});
});

describe("round 49b: a byte order mark (Notepad, PowerShell 5.1)", () => {
	it("is no part of the JSON: installed into (Claude Code reads such a file), kept, and the bytes come back", () => {
		for (const user of ['\uFEFF{\r\n  "model": "opus"\r\n}\r\n', '\uFEFF{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}']) {
			const installed = installHooks(user, commands);
			if (!installed.ok) throw new Error(installed.reason);
			expect(installed.text.startsWith("\uFEFF{")).toBe(true);
			expect(installedHooks(installed.text)).toEqual(commands);
			expect(installHooks(installed.text, commands)).toMatchObject({ ok: true, changed: false });
			const removed = uninstallHooks(installed.text, user);
			expect(removed.ok && removed.text).toBe(user);
			expect(uninstallHooks(installed.text, null)).toMatchObject({ ok: true, text: user });
		}
	});
});
