import { describe, expect, it } from "vitest";
import { listSessions, sessionsLines } from "../../src/node/opencode-db";
import type { ReadOnlyDatabase, Row, SqlValue } from "../../src/node/sqlite-reader";

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * A database of one session whose rows were written out of order: messages not by time, a
 * message's parts not by id, and a part of a message that is not there. Only the queries the
 * reader makes are answered, each table's rows in the order stored.
 */
function database(session: SqlValue[] = ["ses_1", null, "prj_1", "/work", "A title", "1.2.0", 10, 20]): ReadOnlyDatabase {
	const messages: SqlValue[][] = [
		["ses_1", "msg_b", 5, '{"n":"b"}'],
		["ses_1", "msg_a", 3, '{"n":"a"}'],
		["ses_1", "msg_c", 5, '{"n":"c"}'],
		["ses_1", "msg_0", 5, '{"n":"0"}'],
	];
	const parts: SqlValue[][] = [
		["msg_a", "prt_2", '{"p":2}', "ses_1"],
		["msg_a", "prt_1", '{"p":1}', "ses_1"],
		["msg_gone", "prt_9", '{"p":9}', "ses_1"],
		["msg_b", "prt_3", '{"p":3}', "ses_1"],
		["msg_a", "prt_4", '{"p":4}', "ses_1"],
	];
	const tables: Record<string, Row[]> = {
		"SELECT name FROM sqlite_master": ["session", "message", "part", "project"].map((name) => ({ name })),
		"SELECT name FROM pragma_table_info": ["id", "parent_id", "project_id", "directory", "title", "version", "time_created", "time_updated"].map((name) => ({ name })),
		"SELECT id, worktree, vcs FROM project": [{ id: "prj_1", worktree: "/work", vcs: "git" }],
	};
	const rowsOf = (sql: string): SqlValue[][] => (sql.includes("FROM message") ? messages : sql.includes("FROM part") ? parts : sql.includes("FROM session") ? [session] : []);
	return {
		all: (sql) => Promise.resolve(Object.entries(tables).find(([start]) => sql.startsWith(start))?.[1] ?? []),
		each: (sql, _params, onRow, bytesAt = -1) => {
			for (const row of rowsOf(sql)) onRow(row.map((v, i) => (i === bytesAt && typeof v === "string" ? utf8(v) : v)), []);
			return Promise.resolve();
		},
	};
}

describe("sessionsLines", () => {
	it("gives a session's messages by time then id, each followed by its parts by id, rows read in any order; a part of no message is no line", async () => {
		const db = database();
		const ids = (await listSessions(db)).map((s) => s.id);
		for (const whole of [false, true]) {
			const { lines, bytes } = (await sessionsLines(db, ids, whole)).get("ses_1")!();
			expect([...lines[0]!.value!, lines[0]!.parsed]).toEqual(["session", { id: "ses_1", parent_id: null, project_id: "prj_1", directory: "/work", title: "A title", version: "1.2.0", time_created: 10, time_updated: 20, worktree: "/work", vcs: "git" }]);
			expect(lines.slice(1).map((l) => [l.no, ...l.value!, l.text])).toEqual([
				[2, "message", "msg_a", 3, 0, '{"n":"a"}'],
				[3, "part", "prt_1", "msg_a", 0, 0, '{"p":1}'],
				[4, "part", "prt_2", "msg_a", 0, 0, '{"p":2}'],
				[5, "part", "prt_4", "msg_a", 0, 0, '{"p":4}'],
				[6, "message", "msg_0", 5, 0, '{"n":"0"}'],
				[7, "message", "msg_b", 5, 0, '{"n":"b"}'],
				[8, "part", "prt_3", "msg_b", 0, 0, '{"p":3}'],
				[9, "message", "msg_c", 5, 0, '{"n":"c"}'],
			]);
			expect(bytes).toBe(lines.slice(1).reduce((n, l) => n + l.text!.length, 0));
		}
	});

	it("gives a session's columns as JSON would give them back: a number it cannot hold as null, -0 as 0, a large integer as a number", async () => {
		const db = database(["ses_1", null, "prj_1", "/work", "A title", 2n ** 60n, -0, Number.POSITIVE_INFINITY]);
		const ids = (await listSessions(db)).map((s) => s.id);
		const { parsed } = (await sessionsLines(db, ids)).get("ses_1")!().lines[0]!;
		const columns = { id: "ses_1", parent_id: null, project_id: "prj_1", directory: "/work", title: "A title", version: 2 ** 60, time_created: -0, time_updated: Number.POSITIVE_INFINITY, worktree: "/work", vcs: "git" };
		expect(Object.is((parsed as { time_created: number }).time_created, 0)).toBe(true);
		expect(parsed).toEqual(JSON.parse(JSON.stringify(columns)));
	});
});
