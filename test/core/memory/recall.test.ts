import { describe, expect, it } from "vitest";
import type { FactInfo } from "../../../src/core/memory/fact-file";
import { RecallIndex } from "../../../src/core/memory/recall";

const facts: FactInfo[] = [
	{ file: "tests.md", name: "run-tests-before-commit", description: "Always run the whole test suite before committing", modified: "2026-11-01T00:00:00Z" },
	{ file: "db.md", name: "payments-database", description: "The payments service stores orders in Postgres 16", modified: "2026-11-02T00:00:00Z" },
	{ file: "ko.md", name: "결제-테스트", description: "결제 서비스는 통합 테스트를 먼저 실행한다", modified: "2026-11-03T00:00:00Z" },
	{ file: "ja.md", name: "デプロイ手順", description: "本番デプロイは金曜日に行わない", modified: "2026-11-04T00:00:00Z" },
	{ file: "pnpm-old.md", name: "use-pnpm", description: "Install packages with pnpm", modified: "2026-10-01T00:00:00Z" },
	{ file: "pnpm-new.md", name: "use-pnpm-too", description: "Install packages with pnpm", modified: "2026-11-05T00:00:00Z" },
];
const index = RecallIndex.build(facts);
const files = (query: string, limit = 3) => index.recall(query, limit).map((h) => h.fact.file);

describe("recall", () => {
	it("finds facts by their description and name, in English", () => {
		expect(files("how do we handle testing before a commit?")[0]).toBe("tests.md");
		expect(files("which database do payments use")[0]).toBe("db.md");
	});

	it("finds Korean and Japanese facts, particles and endings aside", () => {
		expect(files("지난번 결제 서비스 테스트 어떻게 했지?")[0]).toBe("ko.md");
		expect(files("デプロイはいつ？")[0]).toBe("ja.md");
	});

	it("ranks equal matches by the most recently modified", () => {
		expect(files("pnpm install", 2)).toEqual(["pnpm-new.md", "pnpm-old.md"]);
	});

	it("finds nothing for a prompt that shares no word, and respects the limit", () => {
		expect(files("refactor the logo colors")).toEqual([]);
		expect(files("pnpm", 1)).toHaveLength(1);
	});

	it("folds case as search does: ß is ss, İ and ı are i, a final sigma is a sigma", () => {
		const folded = RecallIndex.build([
			{ file: "street.md", name: "street-column", description: "The Straße column holds the street name" },
			{ file: "office.md", name: "office-city", description: "The İstanbul office deploys on Mondays" },
			{ file: "greek.md", name: "greek-road", description: "ΟΔΟΣ is the road field of the Greek form" },
		]);
		const found = (query: string) => folded.recall(query, 3).map((h) => h.fact.file);
		for (const query of ["STRASSE column", "strasse", "STRAẞE"]) expect(found(query), query).toEqual(["street.md"]);
		for (const query of ["istanbul office", "ISTANBUL", "ıstanbul"]) expect(found(query), query).toEqual(["office.md"]);
		expect(found("οδοσ")).toEqual(["greek.md"]);
	});

	it("makes an index stored under the terms before case folding again from its facts, rather than misread it", () => {
		const stored = { version: 1, facts: [{ file: "street.md", name: "street-column", description: "The Straße column" }], terms: [["straße", "column"]] };
		expect(RecallIndex.restore(stored).recall("STRASSE", 3).map((h) => h.fact.file)).toEqual(["street.md"]);
		expect(RecallIndex.build(stored.facts).serialize().version).toBe(2);
		expect(RecallIndex.restore({ ...stored, facts: [{ file: "broken.md" }] }).size).toBe(0);
	});

	it("answers the same from its stored form", () => {
		const restored = RecallIndex.restore(JSON.parse(JSON.stringify(index.serialize())));
		expect(restored.recall("payments database", 5)).toEqual(index.recall("payments database", 5));
		expect(RecallIndex.restore({ version: 9 }).size).toBe(0);
	});

	it("leaves out a stored fact of another shape and recalls the others, its terms made again (attack round 50a)", () => {
		// One fact whose description was a number made every recall of the project fail in the engine's words.
		const stored = index.serialize() as unknown as { facts: Record<string, unknown>[]; terms: unknown[][] };
		const odd = JSON.parse(JSON.stringify(stored)) as typeof stored;
		odd.facts[0]!.description = 5;
		const restored = RecallIndex.restore(odd);
		expect(restored.size).toBe(stored.facts.length - 1);
		expect(() => restored.recall("payments database deploy", 5)).not.toThrow();
		const words = JSON.parse(JSON.stringify(stored)) as typeof stored;
		words.terms[1] = [5, null];
		expect(RecallIndex.restore(words).recall("payments database", 5)).toEqual(index.recall("payments database", 5));
	});
});
