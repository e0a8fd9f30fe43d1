import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { restoreSecrets } from "../../../src/core/memory/redacted-copy";

const redactor = createRedactor();
const redact = (t: string) => redactor.redact(t);
const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

describe("restoreSecrets", () => {
	it("gives a redacted text back the lines of the file it replaces", () => {
		const raw = `# Deploy\nUse ${TOKEN} for CI.\nDeploys go through CI.\n`;
		const edited = `${redact(raw).replace("Deploys go through CI.", "Deploys go through CI, Fridays too.")}`;
		expect(edited).toContain("[redacted:");
		expect(restoreSecrets(edited, [raw], redact)).toBe(`# Deploy\nUse ${TOKEN} for CI.\nDeploys go through CI, Fridays too.\n`);
	});

	it("keeps a marker whose line was edited, and a text without markers as it is", () => {
		const raw = `Use ${TOKEN} for CI.\n`;
		const edited = redact(raw).replace("for CI", "for CI and CD");
		expect(restoreSecrets(edited, [raw], redact)).toBe(edited);
		expect(restoreSecrets("plain text\n", [raw], redact)).toBe("plain text\n");
		expect(restoreSecrets(edited, [null], redact)).toBe(edited);
	});

	it("restores nothing when the result would not redact to the same text again", () => {
		// A rule that sees across lines: the key's lines alone redact differently from the whole.
		const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdefghij\n-----END RSA PRIVATE KEY-----";
		const raw = `Key:\n${key}\n`;
		const redacted = redact(raw);
		expect(redacted).not.toContain("MIIEow");
		expect(redact(restoreSecrets(redacted, [raw], redact))).toBe(redacted);
	});
});
