import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { claudeNamesByStored, storedFactName } from "../../../src/core/memory/stored-fact-name";

const redact = (t: string) => createRedactor().redact(t);
const token = `ghp${"_"}Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8`;

describe("storedFactName", () => {
	it("keeps a name redaction leaves alone, and hashes one holding a secret", () => {
		expect(storedFactName("feedback_use_pnpm.md", redact)).toBe("feedback_use_pnpm.md");
		const stored = storedFactName(`reference_${token}.md`, redact);
		expect(stored).toMatch(/^#[0-9a-z]+$/);
		expect(stored).not.toContain(token.slice(4, 12));
		expect(storedFactName(`reference_${token}.md`, redact)).toBe(stored);
		expect(storedFactName(`reference_${token.replace("Q", "R")}.md`, redact)).not.toBe(stored);
	});
});

describe("claudeNamesByStored", () => {
	it("finds a file by its name and by its hash, whatever the redaction now", () => {
		const name = `reference_${token}.md`;
		const byStored = claudeNamesByStored([name, "tabs.md"]);
		expect(byStored.get(storedFactName(name, redact))).toBe(name);
		expect(byStored.get(storedFactName(name, (t) => t))).toBe(name);
		expect(byStored.get("tabs.md")).toBe("tabs.md");
		expect(byStored.get("gone.md")).toBeUndefined();
	});
});
