import { describe, expect, it } from "vitest";
import { isNotResult } from "../../../src/core/digest/not-results";

describe("statements that tell no result", () => {
	it.each([
		"Run `make seed` to load the sample rows.",
		"Open http://localhost:5173 in a browser.",
		"Go to Settings → Secrets and add the token.",
		"Then remove the manual `log()` calls from lines 10 and 12.",
		"Option A: keep the old endpoint and add a flag.",
		"Option 2 — a nightly job instead of the hook.",
		"Approach 2: a cache in front of the API.",
		"Alternative (b): keep the flag and document it.",
		"Option 3. Drop the old endpoint.",
		"That will create the bucket and upload everything in one command.",
		"It would have caught the bad migration in dev instead of staging.",
		"This could break older clients.",
		"Worktree might be clean at session start",
		"The stale lock file may be left over from the crash.",
		"Still compiling the test dependencies (first build).",
		"Depends on: Task 1",
		"Next task: 012.",
		"Next up: wiring the parser into the CLI.",
		"Up next: the migration for the orders table.",
		"Go ahead and run those two commands; they should be off now.",
		"I need permission to edit the test file.",
		"I don’t have any saved memory from a previous session.",
		"I can't push to that remote from here.",
		"I'm unable to reach the staging database.",
		"Preciso de permissão para editar o arquivo de teste.",
		"No puedo acceder al repositorio.",
		"Ich kann nicht auf die Datei zugreifen.",
		"The name of the branch and the failing step would help me find where we stopped.",
		"Or paste the log straight into the chat if you'd rather read it here.",
		"We need to generate the client stubs first.",
		"We have to rotate the key before the deploy.",
		"`MAPS_API_KEY`: your key from the console",
		"Username: your `SFTP_USER`.",
		"Alternatively, the nightly job can take the export.",
		"<!-- keep this list in sync with the docs -->",
		".env.example",
		"src/cache/lru.ts",
	])("%s is not a result", (s) => {
		expect(isNotResult(s)).toBe(true);
	});

	it.each([
		"`Ctrl+Alt+M` will now open the mixer.",
		"Added a retry with backoff to the uploader.",
		"Added a timeout, since the upstream may hang.",
		"The option parser now rejects unknown flags.",
		"Options are read from `config.toml` first.",
		"Approach changed: the cache now sits in front of the API.",
		"Running the seed script loads 40 rows.",
		"It now retries three times before failing.",
		"Then the build passed on the second run.",
		"設定ファイルを更新しました。",
		"Still works with the old config files.",
		"I couldn't reproduce it with the fixture, so the flaky test stays as it is.",
		"I needed two passes to get the migration right.",
		"No tests fail now.",
		"Next.js now builds the static pages at deploy time.",
		"Next button: moved to the right of the form.",
		"Added an index, which helps the nightly report run in seconds.",
		"Ordered the imports by module.",
		"We needed to pin the compiler, so `rust-toolchain.toml` now names 1.79.",
		"Login form: your saved email is filled in on load now.",
	])("%s is a result", (s) => {
		expect(isNotResult(s)).toBe(false);
	});
});
