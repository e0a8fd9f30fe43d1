import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildKeywordStats, forEachWordSegment, keywordsOf, rankKeywords, termOccurrences } from "../../../../src/core/digest/tags/keywords";

function segments(text: string, locale: string): [string, boolean][] {
	const out: [string, boolean][] = [];
	forEachWordSegment(text, locale, (segment, isWordLike) => out.push([segment, isWordLike]));
	return out;
}

const segmenters = new Map<string, Intl.Segmenter>();

function intlSegments(text: string, locale: string): [string, boolean][] {
	if (!segmenters.has(locale)) segmenters.set(locale, new Intl.Segmenter(locale, { granularity: "word" }));
	return [...segmenters.get(locale)!.segment(text)].map((s) => [s.segment, s.isWordLike === true]);
}

/** ASCII that the word-break rules treat specially, and a few characters the fast path must leave to ICU. */
const ASCII_PIECES = [..."aZq09'._-,;: \t\r\n\v\f\"#/@!?(\u0000\u007f", "\r\n", "  ", "it's", "1,000.5", "a.b", "__"];
const OTHER_PIECES = ["é", "’", "—", "한국어", "国", "カタ", "👍", "\u0301", "\u200d", "\u00a0", "\u3000", "\u2028", "\u0085", "\ufeff"];

describe("forEachWordSegment", () => {
	it.each([
		["rate-limiting isn't 1,000.5 a:b 1:2 a_b _ __ x..y", "en"],
		["API에 페이지네이션을\nadd page_size, limit", "ko"],
		["ログイン画面\r\nfix login.ts", "ja"],
		["请帮我给用户列表接口加上分页\n\nthen v2", "zh"],
	])("cuts %j as Intl.Segmenter does", (text, locale) => {
		expect(segments(text, locale)).toEqual(intlSegments(text, locale));
	});

	it("cuts any text as Intl.Segmenter does, ASCII lines included", () => {
		const text = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join(""));
		fc.assert(
			fc.property(fc.oneof(text(ASCII_PIECES), text([...ASCII_PIECES, ...OTHER_PIECES]), fc.string()), fc.constantFrom("en", "ko", "ja", "zh"), (t, locale) => {
				expect(segments(t, locale)).toEqual(intlSegments(t, locale));
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("keywordsOf: names and phrases", () => {
	it("takes a call on a language's own objects for no topic (`console.log`, `JSON.parse`, `os.path.join`), a library's name for one", () => {
		const terms = keywordsOf(["The worker prints nothing: `console.error` stays silent, `JSON.parse` throws on the cache file and `os.path.join` gives a Windows path", "Then `logging.getLogger` in the scheduler"]);
		expect(terms).not.toContain("console");
		expect(terms).not.toContain("json");
		expect(terms).not.toContain("os");
		expect(terms).toContain("logging");
		expect(terms).toContain("scheduler");
	});

	it("reads `logging in` and `logging out` as signing in and out, not as logging", () => {
		expect(keywordsOf(["The app says: please try logging in again"])).toContain("login");
		expect(keywordsOf(["Logging out leaves the cart behind"])).toEqual(expect.arrayContaining(["logout", "cart"]));
		expect(keywordsOf(["Move the request logging into middleware"])).toContain("logging");
		expect(keywordsOf(["Our logging is too chatty"])).toContain("logging");
	});

	it("keeps a product name written in camel case whole", () => {
		expect(keywordsOf(["Moving my laptop to NixOS"])).toContain("nixos");
		expect(keywordsOf(["Send the traces to DataDog"])).toEqual(["send", "trace", "datadog"]);
	});

	it("a folder written with its trailing slash (`billing_ui/`) names where the work is, not what it is about", () => {
		const terms = keywordsOf(["In the Vue app (billing_ui/) the invoice total rounds wrongly"]);
		expect(terms).toContain("invoice");
		expect(terms).not.toContain("billing-ui");
		expect(keywordsOf(["Set up CI/CD and weigh pros/cons"])).toEqual(expect.arrayContaining(["ci", "pro"]));
	});

	it("a system error code (EACCES, ENOTEMPTY) is what failed, not a topic; a name in capitals is kept", () => {
		const terms = keywordsOf(["Deleting the cache dir fails with ENOTEMPTY, and writing the YAML file with `EACCES`"]);
		expect(terms).toEqual(expect.arrayContaining(["cache", "yaml"]));
		// Neither code, said in prose or in backticks, is left in any form.
		expect(terms.filter((t) => t.startsWith("e"))).toEqual([]);
	});

	it("a CSS selector in prose (`.price-tag.is-large`, `#top-bar`) is markup, not a topic; a dotfile with an extension stays a file", () => {
		const terms = keywordsOf(["Give the badge (.price-tag.is-large) the colour of #top-bar in the storefront"]);
		expect(terms).toEqual(expect.arrayContaining(["badge", "storefront"]));
		expect(terms).not.toEqual(expect.arrayContaining(["price-tag"]));
		expect(terms).not.toEqual(expect.arrayContaining(["top-bar"]));
		expect(keywordsOf(["Tidy .lint-staged-config.json please"])).toContain("lint-staged-config");
	});

	it("a tool and a generic word make no phrase, two words that name one thing do", () => {
		expect(keywordsOf(["The ghostty config looks off"])).toEqual(["ghostty", "config"]);
		expect(keywordsOf(["Publish the site on GitHub Pages"])).toContain("github-page");
	});

	it("a name or a field that ends in s or js is no plural (emacs, pandas, rails, nextjs, analytics); a plural is made singular", () => {
		expect(keywordsOf(["Configure emacs", "Load it with pandas", "Upgrade rails"])).toEqual(expect.arrayContaining(["emacs", "pandas", "rails"]));
		expect(keywordsOf(["Migrate the nextjs app to chartjs analytics"])).toEqual(expect.arrayContaining(["nextjs", "chartjs", "analytics"]));
		expect(keywordsOf(["Retry failed webhooks"])).toContain("webhook");
	});

	it("an acronym's plural is the acronym: the short ones go as the acronym would, the others lose their s", () => {
		const terms = keywordsOf(["Merge the PRs once the IDs of both JWTs match"]);
		expect(terms).not.toContain("prs");
		expect(terms).not.toContain("ids");
		expect(terms).toContain("jwt");
	});

	it("what is left of a compound cut apart (`3-column`, `row-by-row`) makes no phrase with the word it qualified", () => {
		const terms = keywordsOf(["The 3-column grid collapses on phones", "Export it row-by-row streaming, not all at once"]);
		expect(terms).toEqual(expect.arrayContaining(["column", "grid", "row", "streaming"]));
		expect(terms).not.toContain("column-grid");
		expect(terms).not.toContain("row-streaming");
		expect(keywordsOf(["Render column-by-column output"])).not.toContain("render-column");
		// A compound kept whole still makes its own term.
		expect(keywordsOf(["Add rate-limiting to the gateway"])).toContain("rate-limiting");
	});

	it("drops chat shorthand (idk, btw, imo): it is how the user talks, not what about", () => {
		const terms = keywordsOf(["idk why the toast hides, btw imo the banner is fine"]);
		expect(terms).toEqual(expect.arrayContaining(["toast", "banner"]));
		for (const shorthand of ["idk", "btw", "imo"]) expect(terms).not.toContain(shorthand);
	});

	it("drops Chinese stop words written in traditional characters", () => {
		const terms = keywordsOf(["這是我的專案，我們先討論後再開始"]);
		for (const stop of ["這是", "我的", "我們", "討論", "開始"]) expect(terms).not.toContain(stop);
		expect(terms).toContain("專案");
	});
});

describe("keywordsOf: text a program wrote, pasted into a prompt", () => {
	it("drops the entries of an object literal pasted as code (`retryLimit: 3,`), keeps a prose line with a colon", () => {
		const terms = keywordsOf(["Why does the uploader stall?\n    chunkSize: settings.UPLOAD_CHUNK,\n    retryLimit: 3,\nGoal: resumable uploads, like tus"]);
		expect(terms).not.toContain("chunk-size");
		expect(terms).not.toContain("retry-limit");
		expect(terms).toEqual(expect.arrayContaining(["uploader", "goal", "resumable"]));
	});

	it("drops console lines with a source location, a quoted URL or a shell prompt, and a message quoted again in the user's line", () => {
		const prompt = [
			"The widget page stays blank, here is what I see:",
			"Fetching script from “https://shop.test/widget.js” was rejected because of a bad content type.",
			"Rendering aborted for the module with source “https://shop.test/widget.js”. widget:12:7",
			"panel:1 Refused to open popup because the sandbox forbids the 'allow-popups' capability here.",
			"Also: Refused to open popup because the sandbox forbids the 'allow-popups' capability here.",
			"➜  shop git:(main) npx serve --verbose",
		].join("\n");
		const terms = keywordsOf([prompt]);
		expect(terms).toContain("widget");
		for (const word of ["fetching", "rendering", "sandbox", "popup", "capability", "serve", "verbose"]) expect(terms).not.toContain(word);
	});

	it("knows a console line by a long path's location too, and keeps a line whose last word is long and no location", () => {
		const deep = `/srv/${Array.from({ length: 14 }, (_, i) => `folder${i}`).join("/")}/renderer.js`;
		expect(deep.length).toBeGreaterThan(120);
		const prompt = ["The gallery crashes on open", `Uncaught handshake violation in thumbnailer ${deep}:88:14`].join("\n");
		expect(keywordsOf([prompt])).toContain("gallery");
		expect(keywordsOf([prompt])).not.toContain("thumbnailer");
		const blob = `Decode the gallery payload ${"Qm9vayBvZiBkYXRh".repeat(40)}:1`;
		expect(keywordsOf([blob])).toContain("payload");
	});

	it("drops a help text's options with the indented lines under them, log lines after a time stamp alone on its line, and copied form fields", () => {
		const help = ["Make the exporter pick its format like this tool does:", "-f, --format <kind>", "    Render spreadsheet output in the given kind", "--quiet", "    Suppress progress bars"].join("\n");
		expect(keywordsOf([help])).toEqual(expect.arrayContaining(["exporter", "format"]));
		expect(keywordsOf([help])).not.toEqual(expect.arrayContaining(["spreadsheet", "progress"]));
		const log = ["Deploy broke again", "07:41:02.115", " Mirror handshake refused.", "07:41:02.120", " fatal: gave up on mirror"].join("\n");
		expect(keywordsOf([log])).toEqual(["deploy"]);
		const form = ["Here are the warehouse credentials", "", "hostname:", "wh.internal.test", "", "listener:", "6543"].join("\n");
		expect(keywordsOf([form])).toEqual(["warehouse", "warehouse-credential", "credential"]);
		expect(keywordsOf(["Goal:\nPagination"])).toEqual(["goal", "pagination"]);
	});

	it("drops a terminal's lines: a shell prompt with its command, and the output under it up to a blank line", () => {
		const pasted = ["The copy into the plugin folder keeps failing", "", "~ ✗ doas install -m 644 glow.conf", "install: missing target directory operand", "", "dev@laptop:~/glow$ ls", "dev@laptop:~/glow$"].join("\n");
		const terms = keywordsOf([pasted]);
		expect(terms).toEqual(expect.arrayContaining(["copy", "plugin"]));
		for (const word of ["doas", "install", "target", "directory", "operand", "glow"]) expect(terms).not.toContain(word);
	});

	it("drops an error message quoted in the user's own line, and lines that start as an error does", () => {
		const terms = keywordsOf(['After the upgrade the checkout page is empty, devtools says "Uncaught RangeError: Qx.Basket exceeds its quota" on load']);
		expect(terms).toEqual(expect.arrayContaining(["upgrade", "checkout"]));
		for (const word of ["basket", "quota", "qx"]) expect(terms).not.toContain(word);
		const block = ["Migrations stopped working", "OperationalError: relation ledger_rows is locked", "warning: stale lockfile ignored"].join("\n");
		expect(keywordsOf([block])).toEqual(["migration"]);
	});

	it("keeps the user's own line that points at a place in the code or at a local server", () => {
		expect(keywordsOf(["The bug is in src/cart.ts:42:10 where the pagination resets"])).toContain("pagination");
		expect(keywordsOf(["The storefront at http://localhost:5173 shows no pagination"])).toContain("pagination");
		expect(keywordsOf(["Point the exporter at db.local:5432"])).toContain("exporter");
		expect(keywordsOf(['I opened "https://shop.test/cart" and the pagination is gone'])).toContain("pagination");
		expect(keywordsOf(["% of carts abandoned is too high\nso add pagination"])).toContain("pagination");
	});

	it("drops a line with a time of day to the second in it: a log line or a terminal's banner", () => {
		const pasted = ["Sync keeps hanging in the uploader", "Previous session: Mon Feb  3 14:07:55 on console", "worker 3 idle since 14:08:01, queue drained"].join("\n");
		const terms = keywordsOf([pasted]);
		expect(terms).toContain("uploader");
		for (const word of ["previous", "session", "worker", "queue"]) expect(terms).not.toContain(word);
	});
});


describe("rankKeywords: a colour", () => {
	const OTHERS = [["Add a footer to the invoice page"], ["The login form forgets the email"], ["Speed up the nightly export"]];
	const picked = (prompts: string[]) => rankKeywords(termOccurrences(prompts), buildKeywordStats([...OTHERS, prompts].map(keywordsOf)), 10).map((k) => k.term);

	it("is a value, alone or shaded (`teal`, `dark teal`), not what the session is about", () => {
		const terms = picked(["The toolbar turns dark teal on hover", "Only the toolbar of the editor, its sidebar stays dark teal", "Teal again"]);
		expect(terms.filter((t) => t.includes("teal"))).toEqual([]);
		expect(terms).toContain("toolbar");
	});

	it("leaves a shade alone (`dark` is what is left of dark mode) and two colours (`blue-green` deploys)", () => {
		expect(picked(["Add a dark mode to the toolbar", "The dark mode forgets the toolbar"])).toContain("dark");
		expect(picked(["Switch the release to blue-green deploys", "Does the queue survive a blue-green switch?"])).toContain("blue-green");
	});
});

describe("rankKeywords: two technical terms side by side", () => {
	const OTHERS = [["Add a footer to the invoice page"], ["The login form forgets the email"], ["Speed up the nightly export"]];
	const picked = (prompts: string[]) => rankKeywords(termOccurrences(prompts), buildKeywordStats([...OTHERS, prompts].map(keywordsOf)), 10).map((k) => k.term);

	it("keep the one said throughout: the phrase said once gives way to it rather than replace it", () => {
		const terms = picked(["The kafka consumer lags at night", "Kafka retries pile up after a deploy", "Could the sendgrid kafka bridge be the cause?"]);
		expect(terms).toContain("kafka");
		expect(terms).not.toContain("sendgrid-kafka");
	});

	it("keep one said throughout next to a plain word: the phrase said less (`webhook signature`) does not stand for it", () => {
		const terms = picked(["Our webhook fires twice per order", "The webhook retries never stop", "Is the webhook signature check the cause?", "Log the webhook signature too"]);
		expect(terms).toContain("webhook");
		expect(terms).not.toContain("webhook-signature");
	});

	it("drop the plain word of such a phrase too: it only qualified the technical term (`signature` of `webhook signature`)", () => {
		const terms = picked(["Our webhook fires twice per order", "The webhook retries never stop", "Is the webhook signature check the cause?", "Log the webhook signature too"]);
		expect(terms).not.toContain("signature");
		// Two technical terms are both kept.
		expect(picked(["The kafka consumer lags at night", "Kafka retries pile up after a deploy", "Could the sendgrid kafka bridge be the cause?", "Sendgrid kafka again"])).toEqual(expect.arrayContaining(["kafka", "sendgrid"]));
	});

	it("give way to a phrase that is itself a technical term (`github pages` stands for github)", () => {
		const terms = picked(["Publish the docs to GitHub pages", "GitHub pages shows a blank site", "Is it the GitHub token?"]);
		expect(terms).toContain("github-page");
	});

	it("still make a phrase that stands for both when they are said together as often (`login endpoint`)", () => {
		expect(picked(["Throttle the login endpoint", "The login endpoint answers slowly"])).toContain("login-endpoint");
	});
});

describe("rankKeywords: a word said mostly as a verb", () => {
	const OTHERS = [["Add a footer to the invoice page"], ["The login form forgets the email"], ["Speed up the nightly export"]];
	const picked = (prompts: string[]) => rankKeywords(termOccurrences(prompts), buildKeywordStats([...OTHERS, prompts].map(keywordsOf)), 10).map((k) => k.term);

	it("is not a topic though two of its sentences use it as a noun: it says what is done", () => {
		expect(picked(["Why does the rollover stall?", "We rollover each night and they rollover on Sundays, so the rollover is late"])).not.toContain("rollover");
	});

	it("is one when its noun uses are the most", () => {
		expect(picked(["Why does the rollover stall?", "The rollover is late again, so we rollover by hand"])).toContain("rollover");
	});

	it("after calling or invoke is the name of what is called, not what the session is about", () => {
		expect(picked(["Calling shuffle twice loses a card", "Why does calling shuffle on an empty deck throw?"]).filter((t) => t.includes("shuffle"))).toEqual([]);
		expect(picked(["Shuffle loses a card", "Why does the shuffle throw on an empty deck?"])).toContain("shuffle");
		// `call` alone is as often a noun: the word after it is no verb.
		expect(picked(["Show a call banner when a customer rings", "The banner covers the menu"])).toContain("banner");
	});

	it("a technical term, a known topic or a word the branch names stays however it is said: `cache it` is about caching", () => {
		expect(picked(["Can you cache the price list?"])).toContain("cache");
		const occurrences = termOccurrences(["Why does the rollover stall?", "We rollover each night and they rollover on Sundays"]);
		expect(rankKeywords(occurrences, buildKeywordStats([...OTHERS.map(keywordsOf), occurrences.map((o) => o.term)]), 10, new Set(), new Set(["rollover"])).map((k) => k.term)).toContain("rollover");
	});
});

describe("rankKeywords: a hyphenated name around a technical term", () => {
	const OTHERS = [["Add a footer to the invoice page"], ["The login form forgets the email"], ["Speed up the nightly export"]];
	const picked = (prompts: string[]) => rankKeywords(termOccurrences(prompts), buildKeywordStats([...OTHERS, prompts].map(keywordsOf)), 10).map((k) => k.term);

	it("is a topic said once: it names a variant of the technology (`RSA-OAEP`)", () => {
		expect(picked(["Should the vault keys move to RSA-OAEP padding?"])).toContain("rsa-oaep");
	});

	it("needs evidence like any word when no part of it is technical (`night-shift`), or when it is two words apart (`rsa padding`)", () => {
		expect(picked(["Should the rota get a night-shift column?"])).not.toContain("night-shift");
		expect(picked(["Should the vault use rsa padding?"])).not.toContain("rsa-padding");
	});
});
