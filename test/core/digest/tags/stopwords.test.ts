import { describe, expect, it } from "vitest";
import { EN_GENERIC, isZhGeneric, isZhStop } from "../../../../src/core/digest/tags/stopwords";

describe("isZhStop", () => {
	it("knows a stop word in simplified and in traditional characters", () => {
		expect(isZhStop("这个")).toBe(true);
		expect(isZhStop("這個")).toBe(true);
		expect(isZhStop("開始")).toBe(true);
		expect(isZhStop("還是")).toBe(true);
	});

	it("leaves other words alone", () => {
		expect(isZhStop("數據庫")).toBe(false);
		expect(isZhStop("分页")).toBe(false);
	});
});

describe("isZhGeneric", () => {
	it("knows the Chinese for the general words of code and chat, in either script and in Taiwan's words", () => {
		for (const word of ["窗口", "配置", "用户", "严重", "嚴重", "視窗", "設定", "資料夾"]) expect(isZhGeneric(word)).toBe(true);
	});

	it("is not a stop word list, and leaves named things alone", () => {
		expect(isZhStop("窗口")).toBe(false);
		for (const word of ["分页", "數據庫", "缓存"]) expect(isZhGeneric(word)).toBe(false);
	});
});

describe("EN_GENERIC", () => {
	it("holds the nouns any session's writing uses (a note, a document, a report): no topic alone", () => {
		for (const word of ["note", "document", "report", "summary"]) expect(EN_GENERIC.has(word)).toBe(true);
		for (const word of ["invoice", "tokenizer"]) expect(EN_GENERIC.has(word)).toBe(false);
	});
});
