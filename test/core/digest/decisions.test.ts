import { describe, expect, it } from "vitest";
import { byMeansOnly, decisionsOf, heldReplies, reasonLast } from "../../../src/core/digest/decisions";
import type { SessionEvent } from "../../../src/core/transcript/session-model";

describe("decisionsOf", () => {
	it("knows choices stated as the fix to make, as what to keep or call instead, and as what is not needed", () => {
		const replies = [
			"The best fix is to apply the defaults only during onboarding, so a cleared target stays cleared.",
			"Kept the session token in memory rather than in localStorage.",
			"No schema migration needed: the column already exists in every environment.",
			// A diagnosis, not a choice.
			"The entry has a `content` field instead of a `message` field.",
		];
		expect(decisionsOf({ replies })).toEqual([
			"The best fix is to apply the defaults only during onboarding, so a cleared target stays cleared.",
			"Kept the session token in memory rather than in localStorage.",
			"No schema migration needed: the column already exists in every environment.",
		]);
	});

	it("knows the fix to make told as the cleaner, simpler, safer or easier way, not only the best one", () => {
		const replies = [
			"To keep the key out of the logs, the safer path is to read it from the keychain at start.",
			"The simpler way is to reuse the existing retry helper.",
			// Said ahead of the work, so a plan until its reply holds.
			"The easier fix is to bump the timeout.",
		];
		expect(decisionsOf({ replies: replies.slice(0, 2) })).toEqual(["To keep the key out of the logs, the safer path is to read it from the keychain at start.", "The simpler way is to reuse the existing retry helper."]);
		expect(decisionsOf({ replies: replies.slice(2) }, 4, new Set())).toEqual([]);
	});

	it("takes a choice from the clause it is in when the user typed one long run-on paragraph", () => {
		const prompt = `${"so there is a lot of context here about the roadmap and the partners and what we want to show ".repeat(3)}and after the demo we'll go with the invite-only beta first then open it to everyone`;
		const [choice] = decisionsOf({ prompts: [prompt] });
		expect(choice).toBe("user chose: and after the demo we'll go with the invite-only beta first then open it to everyone");
	});

	it("reads a choice that runs past the fourth line of a paragraph typed over several lines to its end, not to the line's", () => {
		const lines = ["one more piece of feedback on the roadmap that i got today from the judges", "  the telegram bot is a separate agent with its own repository and its own", "  deploy and it talks to the app over the skill endpoint we already have and", "  all of it waits until after the hackathon so we'll go with split mode first then we", "  will open the invite-only beta once the agent is ready", "", "  Pasted notes: we'll go with whatever the docs say"];
		expect(decisionsOf({ prompts: [lines.join("\n")] })).toEqual(["user chose: so we'll go with split mode first then we will open the invite-only beta once the agent is ready"]);
	});

	it("tells a user's choice without the words they wish with, which the mark says already", () => {
		expect(decisionsOf({ prompts: ["I would like to keep the invoices in Postgres instead of the CSV exports"] })).toEqual(["user chose: keep the invoices in Postgres instead of the CSV exports"]);
		expect(decisionsOf({ prompts: ["ok, I think we should go with the hosted queue"] })).toEqual(["user chose: go with the hosted queue"]);
	});

	it("tells a choice led by its reason choice first, and leaves one whose reason holds a comma as written", () => {
		expect(reasonLast("Because the pool is shared by every tenant, we'll cap each request at five connections.")).toBe("Cap each request at five connections, because the pool is shared by every tenant.");
		expect(reasonLast("Given that the API is slow, cached and rate-limited, the page reads the copy.")).toBe("Given that the API is slow, cached and rate-limited, the page reads the copy.");
		expect(reasonLast("Keep the copy in the page.")).toBe("Keep the copy in the page.");
	});

	it("reads a user's correction as a choice: what to use instead, and what not to", () => {
		const prompts = ["no, store the drafts in IndexedDB instead", "Actually, let's keep the old route names.", "rather than a nightly cron, make it a queue worker", "let's not add Docker for this yet"];
		expect(decisionsOf({ prompts })).toEqual([
			"user chose: store the drafts in IndexedDB instead",
			"user chose: let's keep the old route names.",
			"user chose: rather than a nightly cron, make it a queue worker",
			"user chose: let's not add Docker for this yet",
		]);
		// A "no" that is the choice itself stays in it.
		expect(decisionsOf({ prompts: ["No cache needed for the preview builds"] })).toEqual(["user chose: no cache needed for the preview builds"]);
		// A question, and a complaint about what the app shows instead, choose nothing.
		expect(decisionsOf({ prompts: ["should we use IndexedDB instead?", "it shows the spinner instead of the page"] })).toEqual([]);
	});

	it("passes over a user's question typed without its mark, a choice they only weigh or suppose, and what the agent did", () => {
		const prompts = ["should we keep the cache in redis instead of memcached", "maybe we go with the hosted queue", "we could go with the second layout", "if we go with the hosted queue what breaks", "you used yarn instead of pnpm, fix it"];
		expect(decisionsOf({ prompts })).toEqual([]);
		// "Do not use" is a choice, not a question.
		expect(decisionsOf({ prompts: ["do not use the staging bucket"] })).toEqual(["user chose: do not use the staging bucket"]);
	});

	it("reads a user's 'dont use' as a choice, with or without the apostrophe", () => {
		expect(decisionsOf({ prompts: ["hey dont use the staging bucket for this"] })).toEqual(["user chose: dont use the staging bucket for this"]);
	});

	it("knows a change told with its reason, in a summary's list too", () => {
		const reply = "All green.\n\nChanges:\n- **Totals**: Used `seen_ids` to avoid counting a retried request twice\n- Added a `--json` flag\n- Kept the old parser since two plugins import it";
		expect(decisionsOf({ replies: [reply] })).toEqual(["Totals: Used `seen_ids` to avoid counting a retried request twice", "Kept the old parser since two plugins import it"]);
		// A change without a reason is a result, not a choice.
		expect(decisionsOf({ replies: ["Removed the unused export.\n\n- Moved the helpers to `util.ts`"] })).toEqual([]);
	});

	it("finds a 'no … needed' choice anywhere in a reply, not only at its start", () => {
		const reply = "Build succeeds. Here's the summary:\n\n**No cache flush required.** The new key prefix only applies to fresh entries.";
		expect(decisionsOf({ replies: [reply] })).toEqual(["No cache flush required."]);
		// Telling the user there is nothing for them to do is no choice.
		expect(decisionsOf({ replies: ["Deployed. No action needed on your end."] })).toEqual([]);
	});

	it("passes over a choice still being weighed, and a choice echoed back to the user", () => {
		const replies = [
			"Wait, I think the better approach is to serve the assets from the CDN.",
			"The best approach is to pin the version, OR vendor the library.",
			"Maybe the cleanest fix is to drop the cache.",
			"You chose to paste the key — please send it now.",
			"Kept the old endpoint instead of removing it, since two clients still call it.",
		];
		expect(decisionsOf({ replies })).toEqual(["Kept the old endpoint instead of removing it, since two clients still call it."]);
	});

	it("knows a change told after the way it passed over, once done, not planned or offered", () => {
		const done = ["Build is green. Instead of forking the date library, I pinned it to 2.4.", "Rather than a second table, we kept one table with a kind column."];
		expect(decisionsOf({ replies: done })).toEqual(["Instead of forking the date library, I pinned it to 2.4.", "Rather than a second table, we kept one table with a kind column."]);
		const ahead = ["Instead of forking the date library, I'll pin it to 2.4.", "Rather than a second table, you could add a kind column."];
		expect(decisionsOf({ replies: ahead }, 4, new Set())).toEqual([]);
	});

	it("lets a later choice replace the earlier one it passes over, and keeps choices of other things", () => {
		const prompts = ["let's use MySQL for the audit log", "hmm, switch the audit log from mysql to plain files", "let's use tabs for indentation"];
		expect(decisionsOf({ prompts })).toEqual(["user chose: switch the audit log from mysql to plain files", "user chose: let's use tabs for indentation"]);
		const replies = ["Went with Celery for the mail jobs because the app already runs it.", "Replaced Celery with a cron entry, since only one job is left.", "Kept the HTML templates rather than moving to MJML."];
		expect(decisionsOf({ replies })).toEqual(["Replaced Celery with a cron entry, since only one job is left.", "Kept the HTML templates rather than moving to MJML."]);
	});

	it("passes over a diagnosis of what something else did instead, in a reply, a prompt or a commit message", () => {
		const replies = ["Found it: the worker called the REST API instead of the local cache.", "Your build is using the CommonJS entry rather than the ESM one."];
		expect(decisionsOf({ replies }, 4, new Set(replies))).toEqual([]);
		expect(decisionsOf({ prompts: ["it's using the old icons instead of the new set"] })).toEqual([]);
		expect(decisionsOf({ records: ["The sync wrote every note instead of the changed ones. Write only notes whose digest changed."] })).toEqual([]);
		// The change that answers it is still a choice, in the same reply or the same sentence.
		const fixed = ["The worker called the REST API instead of the local cache, so I switched to the cache.", "Kept the local cache rather than the REST API."];
		expect(decisionsOf({ replies: fixed })).toEqual(fixed);
	});

	it("tells a choice once when a summary repeats it in other words", () => {
		expect(decisionsOf({ replies: ["No schema change needed.", "Done. No schema change required: the column exists."] })).toEqual(["No schema change needed."]);
		// Two choices of the user that differ in what they name are two.
		expect(decisionsOf({ prompts: ["let's use Postgres for the store", "let's use Redis for the queue"] })).toHaveLength(2);
	});

	it("counts a recommendation only from a reply that holds, said as the result", () => {
		const recommend = "I'd recommend Option 2 (a nightly job) as it is the least invasive.";
		expect(decisionsOf({ replies: [recommend] }, 4, new Set([recommend]))).toEqual([recommend]);
		expect(decisionsOf({ replies: [recommend] }, 4, new Set())).toEqual([]);
		expect(decisionsOf({ replies: ["I've successfully switched to the streaming parser instead of the DOM one."] })).toEqual(["Switched to the streaming parser instead of the DOM one."]);
		// "We should use X", said and then acted on, is the same proposal taken.
		const should = "The error bubbles up as a bare hook failure. We should use `reportToUser` to show the reason, as the lock warning does.";
		expect(decisionsOf({ replies: [should] }, 4, new Set([should]))).toEqual(["We should use `reportToUser` to show the reason, as the lock warning does."]);
		expect(decisionsOf({ replies: [should] }, 4, new Set())).toEqual([]);
	});

	it("reads a choice across a file name's dots, and in 'prefers … over' and 'switched from … to'", () => {
		const replies = [
			"Logs now go to one place: I wrote them to .cache/logs/run.log instead of one file per job.",
			"The loader prefers the `package.json` exports map over the main field.",
			"Switched the base image from node:20-alpine to node:22-slim.",
		];
		expect(decisionsOf({ replies })).toEqual([
			"Logs now go to one place: I wrote them to .cache/logs/run.log instead of one file per job.",
			"The loader prefers the `package.json` exports map over the main field.",
			"Switched the base image from node:20-alpine to node:22-slim.",
		]);
	});

	it("counts a choice led by its reason from a reply that holds, not one still weighed or only for now", () => {
		const reply = "No plugin reads the old key any more. Since nothing else depends on it, I'll drop the migration shim and read the new key only.";
		const merged = "Since both views render the shared panel, the selection handler needs to be merged into the panel's hook.";
		expect(decisionsOf({ replies: [reply, merged] }, 4, new Set([reply, merged]))).toEqual([
			"Drop the migration shim and read the new key only, since nothing else depends on it.",
			"The selection handler needs to be merged into the panel's hook, since both views render the shared panel.",
		]);
		// Proposed, then the user steered elsewhere.
		expect(decisionsOf({ replies: [reply] }, 4, new Set())).toEqual([]);
		const weighed = ["Since the error is not actionable, I should either drop it or log it at debug level.", "Since the suite is slow, I'll skip the browser tests for now."];
		expect(decisionsOf({ replies: weighed }, 4, new Set(weighed))).toEqual([]);
	});

	it("counts a choice the agent narrates with its reason, from a reply that holds, told without its speaker", () => {
		const replies = [
			"Both lockfiles are stale. I'll go with pnpm since the repo already has a `pnpm-lock.yaml`.",
			"Option 2 needs a server. I'm going with Redis because we already run it for sessions.",
			"Going with the second option because it keeps the public API stable.",
		];
		expect(decisionsOf({ replies }, 4, new Set(replies))).toEqual([
			"Go with pnpm since the repo already has a `pnpm-lock.yaml`.",
			"Going with Redis because we already run it for sessions.",
			"Going with the second option because it keeps the public API stable.",
		]);
		// Not once the user steered elsewhere; and a step with no reason ("I'll use grep to find it") names no choice.
		expect(decisionsOf({ replies: replies.slice(0, 2) }, 4, new Set())).toEqual([]);
		const step = "I'll use grep to find the callers.";
		expect(decisionsOf({ replies: [step] }, 4, new Set([step]))).toEqual([]);
	});

	it("reads a choice written with typographic apostrophes as one written with straight ones", () => {
		const replies = ["Both lockfiles are stale. I\u2019ll go with pnpm since the repo already has a `pnpm-lock.yaml`."];
		expect(decisionsOf({ replies }, 4, new Set(replies))).toEqual(["Go with pnpm since the repo already has a `pnpm-lock.yaml`."]);
		expect(decisionsOf({ prompts: ["Ok, let\u2019s go with vite for the dev server."] })).toEqual(["user chose: let's go with vite for the dev server."]);
		expect(decisionsOf({ prompts: ["For the cache we\u2019ll use Redis."] })).toEqual(["user chose: for the cache we'll use Redis."]);
	});

	it("reads a commit message's body for the change against what it replaced and the change told with its reason", () => {
		const records = [
			"Write all logs to .cache/logs/run.log instead of one file per job. This lets `tail -f` start before a job does.",
			"The default token does not trigger workflows on pull requests a bot opens. Use a personal token so CI runs on them.",
			"Since the vault has one user, simplify access() to always grant when the node exists.\n\nAlso unify the owner ids in create() and mkdir() to use getuid() instead of req.uid().",
			"1. Billable cost, not raw tokens.\n2. Adds a `--pricing` flag.",
			// A description of the work without a choice in it.
			"Adds the review page and links it from the dashboard.",
		];
		expect(decisionsOf({ records })).toEqual([
			"Write all logs to .cache/logs/run.log instead of one file per job.",
			"Use a personal token so CI runs on them.",
			"Simplify access() to always grant when the node exists, since the vault has one user.",
			"Unify the owner ids in create() and mkdir() to use getuid() instead of req.uid().",
		]);
		expect(decisionsOf({ records: ["- Billable cost, not raw tokens\n- Not just the proxy: the page checks the session too"] })).toEqual(["Billable cost, not raw tokens"]);
	});

	it("takes a commit body's means with its purpose as a choice, after the ones that name a way passed over or a reason", () => {
		const records = [
			"Jobs use a lease row in the queue table so a crashed worker's job is picked up again.",
			// Telling what was updated to use something is a change, not the design it settled on.
			"Updated the build script to use esbuild for bundling.",
			"Cache the rendered pages on disk instead of in memory.",
		];
		expect(decisionsOf({ records })).toEqual(["Cache the rendered pages on disk instead of in memory.", "Jobs use a lease row in the queue table so a crashed worker's job is picked up again."]);
		expect(byMeansOnly("Jobs use a lease row in the queue table so a crashed worker's job is picked up again.")).toBe(true);
		expect(byMeansOnly("Cache the rendered pages on disk instead of in memory.")).toBe(false);
	});

	it("knows a choice its maker says was made on purpose, not what someone else did on purpose", () => {
		const replies = [
			"I deliberately left the old export command in place, so scripts that call it keep working.",
			"We intentionally do not retry a failed upload.",
			// Someone else's doing, told as the cause.
			"The field was intentionally removed in the second version of the API.",
			"The user has intentionally cleared the budget for that category.",
		];
		expect(decisionsOf({ replies })).toEqual(["I deliberately left the old export command in place, so scripts that call it keep working.", "We intentionally do not retry a failed upload."]);
	});

	it("passes over options laid out for someone to pick, by their label, their heading or their list's intro", () => {
		const replies = [
			"The page 404s because the folder is not served. There are two ways out:\n\n1. **Bundle the page** - build it into the app\n2. **Use the CDN instead of the app** - no build step\n\nWhich do you prefer?",
			"**Option B: Switch to polling instead of websockets**\n\nPolling is simpler to host.",
			"### Alternative 2 — keep the queue\n\nKept the worker instead of a cron job, since it retries.",
			"Possible fixes:\n- Use a Map instead of a plain object\n- Freeze the object",
		];
		expect(decisionsOf({ replies }, 4, new Set(replies))).toEqual([]);
		// A list that tells what was done still tells its choices.
		expect(decisionsOf({ replies: ["Changes:\n- Kept the page on the CDN instead of the app"] })).toEqual(["Kept the page on the CDN instead of the app"]);
		expect(decisionsOf({ replies: ["Fixed it in two ways so the page could load faster:\n- Kept the page on the CDN instead of the app\n- Dropped the spinner"] })).toEqual(["Kept the page on the CDN instead of the app"]);
	});

	it("passes over a choice left to the user, and counts a suggestion only once it holds", () => {
		const offered = [
			"Tests pass. You could also keep the fixtures in JSON instead of YAML.",
			"If you want, switch the cron job to a queue rather than polling.",
			"Optionally, use the streaming parser instead of the DOM one.",
			"Consider using a Set instead of an array for the lookups.",
			"We could store the token in a cookie rather than in localStorage.",
		];
		expect(decisionsOf({ replies: offered }, 4, new Set(offered))).toEqual([]);
		const suggested = ["I'd suggest using SQLite instead of a JSON file for the index.", "我建議用三個面向,而不是一個總分。"];
		expect(decisionsOf({ replies: suggested }, 4, new Set())).toEqual([]);
		expect(decisionsOf({ replies: suggested }, 4, new Set(suggested))).toEqual(suggested);
	});

	it("counts a plan said ahead of the work only from a reply that holds", () => {
		const plans = [
			"Here is my plan:\n\n1. Keep the uploads in S3 instead of the local disk\n2. Add a cleanup job\n\nShall I go ahead?",
			"The plan is to keep the XML export rather than drop it.",
			"We'll use esbuild instead of webpack for the worker bundle.",
			"To fix this we need to store the parsed config rather than the raw file.",
		];
		expect(decisionsOf({ replies: plans }, 4, new Set())).toEqual([]);
		expect(decisionsOf({ replies: plans }, 4, new Set(plans))).toHaveLength(4);
		// Told as done, a choice needs no answer.
		expect(decisionsOf({ replies: ["Kept the uploads in S3 instead of the local disk."] }, 4, new Set())).toEqual(["Kept the uploads in S3 instead of the local disk."]);
	});

	it("passes over a choice for a case that may come, and keeps behaviour built for one", () => {
		const advice = ["If the deploy keeps timing out, switch to the regional endpoint instead of the global one.", "Unless you need the old rows, you can keep one table instead of two."];
		expect(decisionsOf({ replies: advice }, 4, new Set(advice))).toEqual([]);
		const built = ["If the id is empty, we keep the default name instead of failing."];
		expect(decisionsOf({ replies: built })).toEqual(built);
	});

	it("passes over a choice inside a list of steps handed to the reader", () => {
		const reply = "Set up the bucket first:\n\n1. Open the storage console\n2. Name the bucket anything\n3. No public access needed — click Create\n4. Copy the bucket URL into `.env`\n\nThen tell me when it is done.";
		expect(decisionsOf({ replies: [reply] }, 4, new Set([reply]))).toEqual([]);
		// A summary's list of changes keeps its choices.
		expect(decisionsOf({ replies: ["Done:\n- Renamed the bucket\n- No public access needed: the app signs its URLs"] })).toEqual(["No public access needed: the app signs its URLs"]);
	});

	it("passes over what a section leaves for later or proposes, below a list's intro too", () => {
		const review = "## Review\n\nNo blocking issues.\n\n### Nits (optional)\n1. Rename the helper\n2. Use a const enum instead of a string union";
		const plan = "### Possible fixes\n\n**For the cache:**\n1. Key entries by hash instead of by path";
		const later = "Shipped the parser.\n\n## Next steps\n\nSwitch the CLI to the new parser rather than the old one.";
		expect(decisionsOf({ replies: [review, plan, later] }, 4, new Set([review, plan, later]))).toEqual([]);
		const proposed = "## Suggested changes\n\n- Keep the retry loop instead of failing fast";
		expect(decisionsOf({ replies: [proposed] }, 4, new Set())).toEqual([]);
		expect(decisionsOf({ replies: [proposed] }, 4, new Set([proposed]))).toEqual(["Keep the retry loop instead of failing fast"]);
		// The user's own proposals, carried out, are told as done.
		expect(decisionsOf({ replies: ["Applied your suggestions:\n- Kept the retry loop instead of failing fast"] }, 4, new Set())).toEqual(["Kept the retry loop instead of failing fast"]);
	});

	it("tells a way out chosen against the limit the sentence before states, with that limit as its reason", () => {
		const reply = "Tests still fail. The job queue runs in a forked worker that cannot see the parent's cache. I need to use a shared Redis key for the lock.";
		expect(decisionsOf({ replies: [reply] }, 4, new Set([reply]))).toEqual(["Use a shared Redis key for the lock, since the job queue runs in a forked worker that cannot see the parent's cache"]);
		const switched = "The release tag was already deleted upstream. Let me try a different approach — pin the chart to the previous digest instead.";
		expect(decisionsOf({ replies: [switched] })).toEqual(["Pin the chart to the previous digest instead, since the release tag was already deleted upstream"]);
		// Not from a reply that does not hold, nor without a limit before it: then it is a step.
		expect(decisionsOf({ replies: [reply] }, 4, new Set())).toEqual([]);
		expect(decisionsOf({ replies: ["The build passes now. Let me use the same flag for the docs job."] })).toEqual([]);
		// A limit cut from inside code is no reason to tell.
		expect(decisionsOf({ replies: ["The generated SQL runs `ALTER TABLE ... DROP` without a guard, which won't work here. Let me rewrite it by hand."] })).toEqual([]);
	});

	it("takes a default for such a limit, and a way out told by how it is done", () => {
		const overridden = "The workspace config sets the default linker to mold. We need to override it for the release build.";
		expect(decisionsOf({ replies: [overridden] })).toEqual(["Override it for the release build, since the workspace config sets the default linker to mold"]);
		const simplified = "The retry branch can never run once the queue is drained. Let me tidy the worker by removing that branch.";
		expect(decisionsOf({ replies: [simplified] })).toEqual(["Tidy the worker by removing that branch, since the retry branch can never run once the queue is drained"]);
	});

	it("reads Korean, Japanese and Chinese choices, and looks for none in a text without their script", () => {
		expect(decisionsOf({ replies: ["캐시는 Redis로 하기로 했습니다.", "設定はYAMLを採用しました。", "我们决定使用 SQLite。"] })).toHaveLength(3);
		expect(decisionsOf({ replies: ["The handler returns early when the list is empty."] })).toEqual([]);
	});

	it("reads Chinese choices written in traditional characters as well as in simplified ones", () => {
		const replies = ["我們決定把快取放在記憶體裡。", "最後選擇了 SQLite。", "前端採用了 Svelte。"];
		expect(decisionsOf({ replies })).toEqual(replies);
	});
});

describe("heldReplies", () => {
	const say = (text: string): SessionEvent => ({ kind: "text", text });
	const ask = (text: string): SessionEvent => ({ kind: "prompt", promptKind: "prompt", text, images: 0 });
	const step: SessionEvent = { kind: "tool", call: { id: "t", name: "Bash", input: {} } };

	it("holds a reply the user said yes to, or the agent went on working after", () => {
		const held = heldReplies([say("I'd recommend option A."), ask("ok, let's do it"), say("I'd recommend the queue."), step, say("Done.")]);
		expect([...held]).toEqual(["I'd recommend option A.", "I'd recommend the queue."]);
	});

	it("does not hold a reply the user answered otherwise, took up with a 'but', or never answered", () => {
		const held = heldReplies([say("My recommendation is option 1."), ask("Or would we rather check at startup?"), say("I'd recommend B."), ask("yes, but keep the flag"), say("I recommend using C.")]);
		expect(held.size).toBe(0);
	});

	it("does not hold a reply whose first step the user rejected, and holds one whose step failed otherwise", () => {
		const step = (text: string): SessionEvent => ({ kind: "tool", call: { id: "t", name: "Bash", input: {}, result: { isError: true, text } } });
		const rejected = step("The user doesn\u2019t want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).");
		const failed = step("Exit code 1\nnpm ERR! missing script: build");
		const held = heldReplies([say("I'll go with Yarn since the lockfile is Yarn's."), rejected, say("I'll use the queue because it retries."), failed, say("Done.")]);
		expect([...held]).toEqual(["I'll use the queue because it retries."]);
	});
});
