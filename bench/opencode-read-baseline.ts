import { join } from "node:path";
import { readDatabase } from "../src/node/sqlite-reader";

/**
 * The floor of reading opencode's database, as a process of its own (`npm run bench agents`
 * times it from outside against bench/agent-read.ts on the same data folder): open the same
 * database with the same library (wa-sqlite, the WAL applied by `SqliteImage`), read every row of
 * `session`, `message` and `part`, and `JSON.parse` their JSON columns, nothing else. Prints the
 * rows and JSON values read.
 */
const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: node bench/out/opencode-read-baseline.cjs <opencode data folder>");

const JSON_COLUMNS: Record<string, readonly string[]> = { session: ["permission", "model", "summary_diffs", "revert", "metadata"], message: ["data"], part: ["data"] };

void readDatabase(join(dataDir, "opencode.db"), async (db) => {
	let rows = 0;
	let parsed = 0;
	for (const [table, json] of Object.entries(JSON_COLUMNS)) {
		const columns = (await db.all(`SELECT name FROM pragma_table_info('${table}')`)).map((r) => String(r.name));
		const at = json.map((c) => columns.indexOf(c)).filter((i) => i >= 0);
		await db.each(`SELECT * FROM "${table}"`, [], (values) => {
			rows++;
			for (const i of at) {
				const value = values[i];
				if (typeof value !== "string") continue;
				JSON.parse(value);
				parsed++;
			}
		});
	}
	return { rows, parsed };
}).then((result) => process.stdout.write(`${JSON.stringify(result)}\n`));
