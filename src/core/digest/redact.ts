import { REDACTION_MARKER } from "../text/redaction-marker";
import { dict } from "../dict";
/**
 * Secret redaction for note bodies: API keys, tokens, private keys, credentials in URLs and
 * headers, `KEY=value` assignments whose key names a secret, and random-looking values named in
 * prose (`the key is …`). Each secret becomes
 * `[redacted:<kind>]`; only the secret part is replaced, so `DB_PASSWORD=[redacted:password]` and
 * `postgres://app:[redacted:connection-string-password]@db` keep their context.
 *
 * Pure: no I/O; the user's own patterns run on re2js (RE2, linear time). See docs/redaction.md for the rule table and the policy on
 * look-alikes.
 *
 * Encoded text is judged by what it says: percent-encoded runs holding an escaped separator are
 * decoded and run through the rules (`redactPercentEncoded`), and so is text around a JSON
 * string's escapes or XML's entities (`redactEscaped`); base64 is decoded where its encoding
 * shows a secret's context (`BASE64_PAYLOAD_RULE`) or a `Basic` header's credentials.
 *
 * Complexity: each rule is one left-to-right pass (`exec` with the `g` flag) and is skipped
 * outright when none of its literal hints occurs in the text (one case-folding scan finds them
 * all, `hintsIn`). Every pattern starts
 * with a literal prefix or a one-character look-behind boundary, so a match attempt only begins
 * where a token begins; its quantifiers are bounded and run over character classes that the next
 * element cannot also match (no `(a+)+` shapes), so a failed attempt costs at most its bound and
 * the whole pass is O(length × small constant). `KEY=value` reads the value only for keys that
 * name a secret, and a value found harmless is skipped rather than searched again. The
 * private-key rule walks the body lines after each BEGIN once (sticky regexes) and resumes after
 * them. Measured: ~70 ms per MB of dense code/JSON; 2 MB adversarial runs finish in < 1 s.
 *
 * Idempotent: no rule matches a marker or any part of one, and the contextual rules leave values
 * that already contain a marker alone, so `redact(redact(x)) === redact(x)` (property-tested).
 * User patterns can expose new token boundaries, so with them the rules repeat until nothing
 * changes (at most `MAX_PASSES` rounds).
 */
import type { RE2JS } from "re2js";
import { JSON_STRING_ESCAPES, XML_ENTITIES, type Escapes } from "./escaped-text";
import { composeSpans, continuedLines, joinContinued, minimalSpan, type Span } from "./line-continuation";
import { PatternEngineMissingError, re2 } from "./pattern-engine";

export interface RedactionOptions {
	/**
	 * Extra user patterns: regex source strings, compiled with the "g" flag. Invalid ones are
	 * ignored and reported via `invalidPatterns`. Each non-empty match is replaced with
	 * `[redacted:custom]`; matches that touch an existing marker are left alone.
	 */
	extraPatterns?: readonly string[];
}

export interface RedactionReport {
	/** The redacted text. */
	text: string;
	/** How many secrets were replaced. */
	count: number;
	/** Replacements per kind, e.g. `{ "github-token": 2 }`. */
	byKind: Record<string, number>;
}

export interface Redactor {
	/** The text with every secret replaced by `[redacted:<kind>]`. */
	redact(text: string): string;
	/** Like `redact`, and says how many secrets of which kinds were replaced. */
	redactWithReport(text: string): RedactionReport;
	/** The extra patterns that did not compile, as given. */
	invalidPatterns: string[];
}

/** The marker that replaces a secret. */
function redactionMarker(kind: string): string {
	return `${REDACTION_MARKER}${kind}]`;
}

const MARKER_RE = /\[redacted:[a-z0-9-]{1,40}\]/g;

/** One replacement: text[start, end) becomes `replacement` (`start` is the match's, unless given: never before the previous edit's end). */
interface Edit {
	start?: number;
	end: number;
	replacement: string;
	/** The kinds of the secrets it replaces when they are several (one command's arguments). */
	kinds?: readonly string[];
}

/** Keep the match and resume the search at `skipTo`. */
interface Skip {
	skipTo: number;
	/** Resume at `skipTo` even if it is inside the match (a command's name further on may start a match of its own). */
	back?: true;
}

interface Rule {
	/** The kind shown in the marker (contextual rules may pick another per match). */
	readonly kind: string;
	/** Lower-case literals; the rule runs only when one of them occurs in the lower-cased text. */
	readonly hints: readonly string[];
	/** A cheaper pattern that must match before the rule's own runs (it may match more). */
	readonly gate?: RegExp;
	readonly pattern: RegExp;
	/** Decides one match: an edit (from `match.index`), a skip, or undefined to keep it and go on after it. */
	readonly decide: (match: RegExpExecArray, text: string) => (Edit & { kind: string }) | Skip | undefined;
	/** A token's start, for one a clip cut short (see `redactCutToken`). */
	readonly cut?: CutStart;
}

/**
 * The start of a token, in the characters its body may hold: two past a prefix no word has, six
 * past one that is a common word part (`sk-`, `npm_`, `hf_`, `SG.`; one of them a digit too,
 * `digit`) or the start of any base64 JSON (`eyJ`).
 */
interface CutStart {
	readonly start: RegExp;
	readonly digit?: true;
	/** What the run may have before the token and keeps (`bot` in a Telegram API URL). */
	readonly keep?: RegExp;
	/** A check of the token's start beyond its shape (a Discord token's first part is a user id in base64). */
	readonly valid?: (token: string) => boolean;
}

// ---------------------------------------------------------------------------------------------
// Values that are not secrets

/** Words that are code, types or config literals rather than secrets. */
const NOT_SECRET_WORDS = new Set([
	"true", "false", "yes", "no", "on", "off", "null", "nil", "none", "undefined", "nan",
	"string", "number", "boolean", "bool", "str", "int", "bytes", "any", "unknown", "object", "void", "never",
	"await", "async", "new", "this", "self", "function", "lambda", "typeof", "yield", "require", "input", "getpass", "return",
	"required", "optional", "hidden", "redacted", "masked", "secret", "password", "token",
]);

/**
 * Placeholders: `<your-token>`, `[TOKEN]`, `{token}`, `xxxx`, `****`, `...`, `changeme`,
 * `your_api_key_here`, `YOUR-TOKEN`, `placeholder`, `example`, `dummy`, `todo`.
 */
const PLACEHOLDER_RE = /^(?:<[^<>]*>|\[[^\]]*\]|\{[^}]*\}|[xX*•._-]{3,}|change[-_]?me|placeholder|example|dummy|sample|todo|tbd|fixme|replace[-_]?me|your[-_ ].*|.*[-_]here)$/i;

/** References to a secret kept elsewhere: `process.env.X`, `os.environ[...]`, `secrets.X`. */
const REFERENCE_PREFIX_RE = /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv\(|env\(|ENV\[|System\.getenv|secrets\.|vars\.|env\.)/;

/** `a.b.c` without digits: a property chain in code (`req.body.password`), or a host name. */
const IDENTIFIER_CHAIN_RE = /^[A-Za-z_$][A-Za-z_$]{0,100}(?:\.[A-Za-z_$][A-Za-z_$]{0,100}){1,20}$/;
const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;
const URL_RE = /^[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\//;
const PATH_RE = /^(?:~|\.{1,2})?\/[A-Za-z0-9._\-/]*$/;

/**
 * A password's hash as crypt(3) writes it (`$6$salt$…`, `$2b$12$…`, `$y$j9T$…$…`, `$apr1$…`): a
 * secret (it can be cracked), not a variable reference (`$1$HOME/x` has no 20-character hash).
 */
const CRYPT_HASH_RE = /^\$(?:1|2[abxy]|5|6|7|y|gy|md5|sha1|apr1)\$(?:[^\s$]{0,64}\$){0,3}[./A-Za-z0-9]{20,}$/;

/**
 * True when `value` is obviously not a secret: empty, a variable reference (`$FOO`, `${FOO}`,
 * `%FOO%`, `{{ x }}`, `process.env.FOO`, `os.environ[...]`), a placeholder, a short number, a code
 * word or type, a property chain, a URL or a path, or a variable named after a secret
 * (`userPassword`). Under non-password keys an all-lower-case word (`inherit`, `oauth`) is not
 * one either.
 */
function isNotSecret(value: string, kind: string): boolean {
	// A value a clip cut short (`…` at its end) is judged by what is left of it: it may be a secret's start.
	const v = value.trim().replace(/(?<=.{6})…$/u, "");
	if (v === "" || v.includes(REDACTION_MARKER)) return true;
	// cmd's `^`, PowerShell's backtick: a line's continuation, the value on the next line (see `redactContinued`).
	if (v === "^" || v === "`") return true;
	const first = v[0];
	if (first === "$" && CRYPT_HASH_RE.test(v)) return false;
	if (first === "$" || first === "%" || v.startsWith("{{") || v.startsWith("#{")) return true;
	if (v.includes("...") || v.includes("…")) return true;
	if (/^\d{1,5}$/.test(v)) return true;
	if (NOT_SECRET_WORDS.has(v.toLowerCase())) return true;
	if (PLACEHOLDER_RE.test(v)) return true;
	if (REFERENCE_PREFIX_RE.test(v)) return true;
	if (IDENTIFIER_CHAIN_RE.test(v)) return true;
	if (URL_RE.test(v) || PATH_RE.test(v)) return true;
	if (IDENTIFIER_RE.test(v) && !/\d/.test(v) && secretKeyKind(v) !== undefined) return true;
	if (kind !== "password" && /^[a-z]{1,15}(?:[-_][a-z]{0,15}){0,5}$/.test(v)) return true;
	return kind === "key" && (PUBLISHABLE_KEY_RE.test(v) || !looksRandom(v));
}

/** A key public by design, whatever it looks like: Stripe's and Clerk's publishable keys (Laravel Cashier's `STRIPE_KEY=pk_…`). */
const PUBLISHABLE_KEY_RE = /^pk_(?:live|test)_/;

/** Longer than the hex of a 512-bit key (128) or a long token: a file in base64. */
const MAX_KEY_LENGTH = 200;
/**
 * The start of a file in base64 (PNG, JPEG, GIF, WebP, PDF, zip, gzip) or of a public key (an SSH
 * key's body, `AAAAC3NzaC1…`; the DER of an Ed25519, X25519 or P-256 one): an image, a document or
 * a key that is no secret, however random it looks.
 */
const FILE_IN_BASE64_RE = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR|JVBERi0|UEsDB|H4sI|AAAA[BC]3NzaC1|AAAAE2VjZHNh|MCowBQYDK2V[uw]|MFkwEwYHKoZIzj0C)/;
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** A part of a value that is one word or one number: `my`, `Service`, `SERVICE`, `2024`. */
const WORD_OR_NUMBER_RE = /^(?:[A-Za-z][a-z]*|[A-Z]+|\d+)$/;

/**
 * Whether a value has a generated key's look (what a name ending in a bare `KEY` needs, see
 * `keywordKind`): 16 characters or more, 12 of them letters and digits, which change class
 * (letter case, digit) at one character in four or more and hold 8 different ones. A random
 * string changes about every other character; words and numbers joined (`my-service-key-2024`,
 * `MyServiceKeyName2024`) only where they meet. A UUID is an id, a file's or a public key's
 * start in base64 (`FILE_IN_BASE64_RE`) no secret, and a longer value than
 * `MAX_KEY_LENGTH` a file in base64 (a certificate, a public key), judged by what it decodes to
 * (`BASE64_PAYLOAD_RULE`).
 */
function looksRandom(value: string): boolean {
	if (value.length < 16 || value.length > MAX_KEY_LENGTH || /\s/.test(value) || UUID_RE.test(value) || FILE_IN_BASE64_RE.test(value)) return false;
	const parts = value.split(/[^A-Za-z0-9]+/).filter((part) => part !== "");
	if (parts.every((part) => WORD_OR_NUMBER_RE.test(part))) return false;
	const chars = parts.join("");
	if (chars.length < 12 || !/[A-Za-z]/.test(chars) || !/\d/.test(chars) || new Set(chars).size < 8) return false;
	let changes = 0;
	for (let i = 1; i < chars.length; i++) {
		const was = charClass(chars.charCodeAt(i - 1));
		const is = charClass(chars.charCodeAt(i));
		// A capital before lower case is one word's start (`Service`), no change.
		if (is !== was && !(was === 1 && is === 2)) changes++;
	}
	return changes * 4 >= chars.length;
}

/** 0 for a digit, 1 for an upper-case letter, 2 for a lower-case one. */
function charClass(c: number): number {
	return c <= 0x39 ? 0 : c <= 0x5a ? 1 : 2;
}

// ---------------------------------------------------------------------------------------------
// Key names that announce a secret

/**
 * Keywords that may end a word part: `DBPASSWORD`, `AUTHTOKEN`, `clientsecret`. A key named for
 * what it does (`ENCRYPTION_KEY`, `SIGNING_KEY`, `MASTER_KEY`, `HMAC_KEY`) holds a symmetric key,
 * often as bare base64 that no other rule could tell from a hash; a bare `KEY` names ids and
 * public keys as often (`SORT_KEY`, `PUBLIC_KEY`).
 */
const STRONG_KEYWORD_RE = /(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|APIKEY|API_KEY|ACCESS_KEY|ACCESSKEY|PRIVATE_KEY|PRIVATEKEY|(?:ENCRYPTION|SIGNING|MASTER|HMAC)_?KEY)(?=_|$)/;
/** Keywords that must be a whole word part: `DB_PASS`, `DB_PWD`, `BASIC_AUTH` (not `BYPASS`, `AUTHOR`). */
const WEAK_KEYWORD_RE = /(?:^|_)(?:PASS|PWD|AUTH)(?=_|$)/;
const PASSWORD_KEYWORD_RE = /PASSWORD|PASSWD|PASSPHRASE|(?:^|_)(?:PASS|PWD)(?=_|$)/;
/** A last word part that makes the key describe the secret, not hold it: `TOKEN_URL`, `PASSWORD_MIN_LENGTH`. */
const NOT_SECRET_SUFFIXES = new Set([
	"URL", "URI", "URLS", "ENDPOINT", "HOST", "HOSTNAME", "PORT", "PATH", "FILE", "FILENAME", "DIR", "DIRECTORY", "NAME",
	"TYPE", "MODE", "METHOD", "PROVIDER", "DOMAIN", "REGION", "LIMIT", "LIMITS", "TTL", "EXPIRY", "EXPIRES", "EXPIRATION",
	"IN", "TIMEOUT", "LENGTH", "LEN", "COUNT", "SIZE", "MAX", "MIN", "ENABLED", "DISABLED", "ENABLE", "REQUIRED", "HEADER",
	"PREFIX", "ID", "ARN", "VERSION", "LEVEL", "POLICY", "STRATEGY", "FORMAT", "SCOPE", "SCOPES", "AUDIENCE", "ISSUER",
	"ALGORITHM", "ALG", "FIELD", "PARAM", "LABEL", "SOCK", "SOCKET", "COMMAND", "CMD", "HINT", "RESET", "REGEX", "PATTERN",
	"DURATION", "LIFETIME", "AGE", "ROUNDS", "STORE", "CACHE", "STORAGE", "MANAGER", "HELPER", "SERVICE", "SERVER",
	// Text about the thing, found as false positives in real transcripts (`token_usage_str = " | "`,
	// `token_summary = "Token usage – "`): measured against gitleaks' rules, docs/redaction.md.
	"STR", "STRING", "SUMMARY", "TEXT", "MESSAGE", "MSG", "DESCRIPTION", "SEPARATOR", "SEP", "DELIMITER", "TITLE", "PARTS",
]);
/**
 * Word parts that make a name ending in a bare `KEY` name a public key or an id rather than a
 * secret (see `keywordKind`): `PUBLIC_KEY`, Stripe's `PUBLISHABLE_KEY`, reCAPTCHA's `SITE_KEY`,
 * Algolia's search-only `SEARCH_KEY`, Supabase's `ANON_KEY`, a GPG key's id; database and cache
 * keys, and keys of a queue, a store or a translation, whose values are hashes, UUIDs and names.
 */
const NOT_SECRET_KEY_PARTS = new Set([
	"PUBLIC", "PUB", "PUBLISHABLE", "SITE", "SEARCH", "ANON", "GPG", "PGP",
	"SORT", "PRIMARY", "FOREIGN", "PARTITION", "RANGE", "HASH", "CACHE", "IDEMPOTENCY", "DEDUP", "DEDUPE", "DEDUPLICATION",
	"ROUTING", "SHARD", "LOOKUP", "QUERY", "STORAGE", "OBJECT", "BUCKET", "LOCK", "REDIS", "ROW", "ITEM", "ENTITY", "RECORD",
	"TRANSLATION", "I18N", "LOCALE", "MESSAGE", "EVENT", "JOB",
]);
/** Prefixes of the variables a front-end build puts into the code it ships: public by design. */
const CLIENT_BUNDLE_PREFIX_RE = /^(?:REACT_APP|VITE|GATSBY|EXPO_PUBLIC|NEXT_PUBLIC|NUXT_PUBLIC)_/;
/** A name ending in a bare `KEY` that is a secret's only when its value looks random; `APP_KEY` after a name is an app's public id (Pusher's, Reverb's). */
const BARE_KEY_RE = /^(?!.*_APP_KEY$)[A-Z0-9_]*[A-Z0-9]_KEY$/;

/**
 * Shell variables that merely contain a keyword: the working directory, as the shell spells it.
 * Spelt otherwise, `Pwd` and `pwd` name a password (ODBC's and ADO's `Uid=sa;Pwd=…;`); a `pwd=`
 * in a script holding the directory holds a path, or `$(pwd)`, which stay as values.
 */
const SHELL_VARIABLES = new Set(["PWD", "OLDPWD"]);

/** A cheap first look: every secret key contains one of these. */
const KEY_HINT_RE = /pass|pwd|secret|token|key|auth/i;

/** `dbPassword`, `db-password`, `db.password` → `DB_PASSWORD`. */
function normalizeKey(key: string): string {
	return key
		.replace(/([a-z0-9])([A-Z])/g, "$1_$2")
		.replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
		.replace(/[-.\s]+/g, "_")
		.toUpperCase();
}

/**
 * What a key's name says of its value: "password" or "secret" when it announces one (`DB_PASSWORD`,
 * `apiKey`); "key" when it ends in a bare `KEY` (`FOO_SERVICE_KEY`, `zohoClientKey`), which names
 * ids and public keys as often: then the value is a secret only if it looks random (`looksRandom`),
 * and is shown as a "secret" (`markerKind`).
 */
type KeyKind = "password" | "secret" | "key";

/** The kind a marker shows for a key's value. */
const markerKind = (kind: string): string => (kind === "key" ? "secret" : kind);

/** The kind of secret a name announces (see `KeyKind`), else undefined. */
function secretKeyKind(key: string): KeyKind | undefined {
	if (key.length > 64 || !KEY_HINT_RE.test(key)) return undefined;
	return keywordKind(normalizeKey(key));
}

/**
 * A name whose keyword is plural (`API_KEYS`, `GITHUB_TOKENS`, `CLIENT_SECRETS`) holds several, or
 * counts them (`MAX_TOKENS`, `output_tokens`): judged as its singular, its value taken only when it
 * looks random, as under a bare `KEY`.
 */
const PLURAL_KEYWORD_RE = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSPHRASE)S$/;

function keywordKind(norm: string): KeyKind | undefined {
	if (PLURAL_KEYWORD_RE.test(norm)) return keywordKind(norm.slice(0, -1)) === undefined ? undefined : "key";
	if (STRONG_KEYWORD_RE.test(norm) || WEAK_KEYWORD_RE.test(norm)) return PASSWORD_KEYWORD_RE.test(norm) ? "password" : "secret";
	if (!BARE_KEY_RE.test(norm) || CLIENT_BUNDLE_PREFIX_RE.test(norm) || norm.split("_").some((part) => NOT_SECRET_KEY_PARTS.has(part))) return undefined;
	return "key";
}

/** Like `secretKeyKind`, but not for keys that describe a secret (`TOKEN_URL`) or shell variables (`PWD`). */
function keyDescribesSecret(key: string): KeyKind | undefined {
	if (key.length > 64 || !KEY_HINT_RE.test(key)) return undefined;
	if (SHELL_VARIABLES.has(key)) return undefined;
	const norm = normalizeKey(key);
	const last = norm.slice(norm.lastIndexOf("_") + 1);
	if (NOT_SECRET_SUFFIXES.has(last)) return undefined;
	return keywordKind(norm);
}

// ---------------------------------------------------------------------------------------------
// Rules

/** A token that is a secret as a whole: the match becomes the marker. */
function tokenRule(kind: string, hints: readonly string[], pattern: RegExp, options: { valid?: (m: string) => boolean; cut?: CutStart } = {}): Rule {
	const { valid, cut } = options;
	return {
		kind,
		hints,
		pattern,
		decide: (m) => (valid && !valid(m[0]) ? undefined : { end: m.index + m[0].length, replacement: redactionMarker(kind), kind }),
		...(cut ? { cut } : {}),
	};
}

/**
 * A labelled secret: the `pre` group stays, the `val` group becomes the marker. `command`: the
 * label is a command line up to an option; a value found harmless resumes the search right after
 * the match's start, so the same command further on in it is found too.
 */
function valueRule(kind: string, hints: readonly string[], pattern: RegExp, valid?: (value: string) => boolean, command = false): Rule {
	return {
		kind,
		hints,
		pattern,
		decide: (m) => {
			const pre = m.groups?.pre ?? "";
			const val = m.groups?.val ?? "";
			if (val === "" || (valid && !valid(val))) return command ? { skipTo: m.index + 1, back: true } : undefined;
			return { end: m.index + pre.length + val.length, replacement: pre + redactionMarker(kind), kind };
		},
	};
}

const mixedCase = (s: string): boolean => /[a-z]/.test(s) && /[A-Z]/.test(s);
/**
 * A token's random body: both cases, and a digit unless it is long. Of random alphanumeric bodies
 * of 28 to 40 characters (these rules'), 0.2 to 0.7 % have no digit, and a real key of that kind was
 * left whole (a Resend key in round 46a's shapes, once in a few runs); one of one case only is far
 * rarer (under 10^-7), so past 24 characters both cases are enough.
 */
const randomLooking = (s: string): boolean => mixedCase(s) && (s.length >= 24 || /\d/.test(s));

/**
 * Round 46a: tokens of more services met in agent sessions, each by its documented prefix and shape
 * (a bare one in prose, a command or a tool's output passed every other rule). A few short prefixes
 * (`sl.`, `EAA`, `pat`, `st.`) want a long body, or a shape no word has, and a random-looking one.
 */
const ROUND_46A_TOKEN_RULES: readonly Rule[] = [
	tokenRule("age-secret-key", ["age-secret-key-1"], /(?<![A-Za-z0-9])AGE-SECRET-KEY-1[0-9A-Z]{58}(?![A-Za-z0-9])/g, { cut: { start: /^AGE-SECRET-KEY-1[0-9A-Z]{2,}$/ } }),
	// Microsoft Entra (Azure AD) client secrets: three characters, a digit, `Q~`, then 31 to 34 (hints of three: `q~` alone ran on every string).
	tokenRule("azure-client-secret", [..."0123456789"].map((d) => `${d}q~`), /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, { valid: (m) => randomLooking(m) }),
	// An Azure SAS URL's signature (the rest of the URL says what it grants, not how).
	valueRule("azure-sas-signature", ["sig="], /(?<pre>[?&]sig=)(?<val>(?:[A-Za-z0-9+/_-]|%2[bBfF]|%3[dD]){20,200})/g, (v) => /[a-z]/.test(v) && /[A-Z]/.test(v)),
	valueRule("webhook-url", ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"], /(?<pre>discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/)(?<val>[A-Za-z0-9_-]{40,100})/g),
	valueRule("webhook-url", [".webhook.office.com/webhookb2/", "outlook.office.com/webhook/"], /(?<pre>(?:\.webhook\.office\.com\/webhookb2|outlook\.office\.com\/webhook)\/)(?<val>[A-Za-z0-9@/_-]{40,400})/g),
	valueRule("webhook-url", ["hooks.zapier.com/hooks/catch/"], /(?<pre>hooks\.zapier\.com\/hooks\/catch\/)(?<val>\d{3,12}\/[A-Za-z0-9]{4,20})/g),
	tokenRule("mailchimp-api-key", ["-us"], /(?<![A-Za-z0-9_-])[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9_-])/g, { valid: (m) => /[a-f]/.test(m) && /\d/.test(m.slice(0, 32)) }),
	tokenRule("sourcegraph-token", ["sgp_"], /(?<![A-Za-z0-9])sgp_(?:[A-Za-z0-9]{16}_)?[0-9a-f]{40}(?![A-Za-z0-9_-])/g, { cut: { start: /^sgp_[0-9a-f]{6,}$/, digit: true } }),
	tokenRule("rubygems-api-key", ["rubygems_"], /(?<![A-Za-z0-9])rubygems_[0-9a-f]{48}(?![A-Za-z0-9_-])/g, { cut: { start: /^rubygems_[0-9a-f]{2,}$/ } }),
	tokenRule("dockerhub-token", ["dckr_pat_", "dckr_oat_"], /(?<![A-Za-z0-9])dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g, { cut: { start: /^dckr_(?:pat|oat)_[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule("tavily-api-key", ["tvly-"], /(?<![A-Za-z0-9])tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}(?![A-Za-z0-9_-])/g, { cut: { start: /^tvly-[A-Za-z0-9-]{2,}$/ } }),
	tokenRule("square-token", ["eaaa", "sq0atp-", "sq0csp-"], /(?<![A-Za-z0-9_+/-])(?:EAAA[A-Za-z0-9_-]{60}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43})(?![A-Za-z0-9_-])/g, { valid: (m) => m.startsWith("sq0") || randomLooking(m.slice(4)) }),
	tokenRule("facebook-access-token", ["eaa"], /(?<![A-Za-z0-9_+/-])EAA[A-Za-z0-9]{90,400}(?![A-Za-z0-9_+/-])/g, { valid: (m) => randomLooking(m.slice(3)) }),
	tokenRule("planetscale-token", ["pscale_"], /(?<![A-Za-z0-9])pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}(?![A-Za-z0-9_-])/g, { cut: { start: /^pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{2,}$/ } }),
	tokenRule("fly-token", ["fm1a_", "fm1r_", "fm2_"], /(?<![A-Za-z0-9])fm(?:1[ar]|2)_[A-Za-z0-9+/]{64,4096}={0,2}/g, { cut: { start: /^fm(?:1[ar]|2)_[A-Za-z0-9+/]{6,}$/ } }),
	tokenRule("netlify-token", ["nfp_", "nfc_", "nfo_"], /(?<![A-Za-z0-9])nf[pco]_[A-Za-z0-9]{36,40}(?![A-Za-z0-9_-])/g, { valid: (m) => randomLooking(m.slice(4)), cut: { start: /^nf[pco]_[A-Za-z0-9]{6,}$/, digit: true } }),
	tokenRule("tailscale-key", ["tskey-"], /(?<![A-Za-z0-9])tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,64}(?![A-Za-z0-9_-])/g, { cut: { start: /^tskey-[a-z]+-[A-Za-z0-9-]{2,}$/ } }),
	tokenRule("terraform-cloud-token", [".atlasv1."], /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,90}(?![A-Za-z0-9_-])/g),
	tokenRule("infisical-token", ["st."], /(?<![A-Za-z0-9.])st\.[0-9a-f-]{8,40}\.[0-9a-f]{32}\.[0-9a-f]{32}(?![A-Za-z0-9_-])/g),
	tokenRule("resend-api-key", ["re_"], /(?<![A-Za-z0-9_-])re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?![A-Za-z0-9_-])/g, { valid: (m) => randomLooking(m.slice(3)) }),
	tokenRule("dropbox-token", ["sl."], /(?<![A-Za-z0-9_.-])sl\.(?:u\.)?[A-Za-z0-9_-]{130,1500}(?![A-Za-z0-9_-])/g, { valid: (m) => randomLooking(m) }),
	tokenRule("contentful-token", ["cfpat-"], /(?<![A-Za-z0-9])CFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, { cut: { start: /^CFPAT-[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule("typeform-token", ["tfp_"], /(?<![A-Za-z0-9])tfp_[A-Za-z0-9_.=-]{40,70}(?![A-Za-z0-9_.=-])/g, { valid: (m) => randomLooking(m.slice(4)), cut: { start: /^tfp_[A-Za-z0-9_.=-]{6,}$/, digit: true } }),
	tokenRule("prefect-api-key", ["pnu_"], /(?<![A-Za-z0-9])pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9_-])/g, { cut: { start: /^pnu_[A-Za-z0-9]{6,}$/, digit: true } }),
	tokenRule("buildkite-token", ["bkua_"], /(?<![A-Za-z0-9])bkua_[0-9a-f]{40}(?![A-Za-z0-9_-])/g, { cut: { start: /^bkua_[0-9a-f]{2,}$/ } }),
	tokenRule("circleci-token", ["ccipat_"], /(?<![A-Za-z0-9])CCIPAT_[A-Za-z0-9]{22}_[0-9a-f]{40}(?![A-Za-z0-9_-])/g, { cut: { start: /^CCIPAT_[A-Za-z0-9_]{2,}$/ } }),
	tokenRule("airtable-token", ["pat"], /(?<![A-Za-z0-9_-])pat[A-Za-z0-9]{14}\.[0-9a-f]{64}(?![A-Za-z0-9_-])/g),
	tokenRule("mapbox-secret-token", ["sk.eyj"], /(?<![A-Za-z0-9])sk\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,100}(?![A-Za-z0-9_-])/g, { cut: { start: /^sk\.eyJ[A-Za-z0-9_.-]{2,}$/ } }),
	tokenRule("bitbucket-app-password", ["atbb"], /(?<![A-Za-z0-9])ATBB[A-Za-z0-9_=.-]{28,40}(?![A-Za-z0-9_=.-])/g, { valid: (m) => randomLooking(m.slice(4)) }),
	tokenRule("onepassword-service-token", ["ops_eyj"], /(?<![A-Za-z0-9])ops_eyJ[A-Za-z0-9+/=_-]{100,4096}/g, { cut: { start: /^ops_eyJ[A-Za-z0-9+/=_-]{2,}$/ } }),
	tokenRule("firebase-server-key", [":apa91b"], /(?<![A-Za-z0-9_-])AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200}(?![A-Za-z0-9_-])/g),
	tokenRule("google-refresh-token", ["1//0"], /(?<![A-Za-z0-9/:])1\/\/0[A-Za-z0-9_-]{40,512}(?![A-Za-z0-9_-])/g, { valid: (m) => randomLooking(m.slice(4)) }),
	// A Kubernetes bootstrap token (`kubeadm token create`, a kubeconfig's `token:`): six and sixteen of
	// `[a-z0-9]`; its second part holding a letter and a digit tells it from a host or file name (the
	// first, six characters, has no digit once in seven).
	{
		// Where a text names one (`--token`, `token:`, `kubeadm`, `bootstrap-token-…`): its shape alone
		// is no rarer than a dot, and read in every text it made all redaction 1.3x (instructions, the
		// corpus). Found from its dot, the six characters before checked from there: a pattern that
		// starts with them is tried at every letter of the text.
		kind: "kubernetes-bootstrap-token",
		hints: ["token", "kubeadm", "bootstrap"],
		pattern: /\.(?<=(?<![A-Za-z0-9_.-])[a-z0-9]{6}\.)[a-z0-9]{16}(?![A-Za-z0-9_.-])/g,
		decide: (m) => (/[a-z]/.test(m[0]) && /\d/.test(m[0]) ? { start: m.index - 6, end: m.index + m[0].length, replacement: redactionMarker("kubernetes-bootstrap-token"), kind: "kubernetes-bootstrap-token" } : undefined),
	},
	// A JSON Web Key's private members (`d`, and an RSA key's primes and exponents).
	valueRule("private-key", ['"d"', '"p"', '"q"', '"dp"', '"dq"', '"qi"'], /(?<pre>\\?"(?:d|p|q|dp|dq|qi)\\?"[ \t]*:[ \t]*\\?")(?<val>[A-Za-z0-9_-]{32,2048})(?=\\?")/g, (v) => randomLooking(v)),
	// PuTTY's key file: its private part is the base64 lines after `Private-Lines: N`.
	valueRule("private-key", ["private-lines:"], /(?<pre>Private-Lines:[ \t]*\d{1,3}\s+)(?<val>[A-Za-z0-9+/=]{16,128}(?:\s{1,4}[A-Za-z0-9+/=]{16,128}){0,63})/g),
	// Password hashes of htpasswd and crypt(3), an offline guess away from the password (a hash in `useradd -p` was one already).
	tokenRule("password", ["$apr1$", "$2a$", "$2b$", "$2y$", "$6$", "$5$"], /(?:\$apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}|\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}|\$[56]\$(?:rounds=\d{1,9}\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{43,86})(?![./0-9A-Za-z])/g),
];

/**
 * Anthropic, OpenAI, cloud and SaaS tokens with a recognisable prefix. Each starts after anything
 * but a letter or digit: a token glued to a name by `-` or `_` is still one (`claude-ghp_…` as a
 * model's name, `key_ghp_…` as a key of a tool's input were kept whole). The short prefixes
 * (`sk-`, `SK`, `key-`) still want no `-` or `_` before them: inside a base64url string or a slug
 * they would take what follows for a key.
 */
const TOKEN_RULES: readonly Rule[] = [
	tokenRule("jwt", ["eyj"], /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{4,8192}\.eyJ[A-Za-z0-9_-]{4,8192}\.[A-Za-z0-9_-]{0,8192}/g, { cut: { start: /^eyJ[A-Za-z0-9_.-]{6,}$/ } }),
	tokenRule("anthropic-api-key", ["sk-ant-"], /(?<![A-Za-z0-9])sk-ant-[a-z]{2,12}\d{2}-[A-Za-z0-9_-]{20,300}/g, { cut: { start: /^sk-ant-[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule(
		"openai-api-key",
		["sk-"],
		// `sk-proj-`, `sk-svcacct-` and `sk-admin-` are long prefixes: glued to a name (`mcp__sk-proj-…` as a tool's name) still a key.
		/(?:(?<![A-Za-z0-9])sk-(?:proj|svcacct|admin)-|(?<![A-Za-z0-9_-])sk-(?:None-)?)[A-Za-z0-9_-]{20,300}/g,
		{ valid: (m) => !m.startsWith("sk-ant-") && randomLooking(m.slice(3)), cut: { start: /^sk-[A-Za-z0-9_-]{6,}$/, digit: true } },
	),
	tokenRule("github-token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g, { cut: { start: /^(?:gh[pousr]_[A-Za-z0-9]{2,}|github_pat_[A-Za-z0-9_]{2,})$/ } }),
	tokenRule(
		"gitlab-token",
		["glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "glft-", "glimt-", "glsoat-", "glagent-"],
		/(?<![A-Za-z0-9])gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|soat|agent)-[A-Za-z0-9_-]{20,255}(?:\.[A-Za-z0-9_-]{2,64}){0,2}/g,
		{ cut: { start: /^gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|soat|agent)-[A-Za-z0-9_-]{2,}$/ } },
	),
	tokenRule("slack-token", ["xox", "xapp-"], /(?<![A-Za-z0-9])(?:xox[abposre]-[A-Za-z0-9-]{10,255}|xapp-\d-[A-Za-z0-9-]{10,255})/g, { cut: { start: /^(?:xox[abposre]-|xapp-)[A-Za-z0-9-]{2,}$/ } }),
	valueRule("slack-webhook", ["hooks.slack.com/"], /(?<pre>hooks\.slack\.com\/(?:services|workflows|triggers)\/)(?<val>[A-Za-z0-9_/+-]{10,255})/g),
	tokenRule("stripe-key", ["sk_live_", "sk_test_", "rk_live_", "rk_test_"], /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{10,255}/g, { cut: { start: /^[sr]k_(?:live|test)_[A-Za-z0-9]{2,}$/ } }),
	tokenRule("stripe-webhook-secret", ["whsec_"], /(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=]{20,255}/g, { cut: { start: /^whsec_[A-Za-z0-9]{2,}$/ } }),
	tokenRule("google-api-key", ["aiza"], /(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, { cut: { start: /^AIza[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule("google-oauth-token", ["ya29."], /(?<![A-Za-z0-9])ya29\.[A-Za-z0-9_-]{20,2048}/g, { cut: { start: /^ya29\.[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule("google-oauth-client-secret", ["gocspx-"], /(?<![A-Za-z0-9])GOCSPX-[A-Za-z0-9_-]{20,64}/g, { cut: { start: /^GOCSPX-[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule("npm-token", ["npm_"], /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_-])/g, { cut: { start: /^npm_[A-Za-z0-9]{6,}$/, digit: true } }),
	tokenRule("pypi-token", ["pypi-age"], /(?<![A-Za-z0-9])pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,1000}/g, { cut: { start: /^pypi-AgE[A-Za-z0-9_-]{2,}$/ } }),
	tokenRule("huggingface-token", ["hf_"], /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9_-])/g, { valid: (m) => mixedCase(m.slice(3)), cut: { start: /^hf_[A-Za-z0-9]{6,}$/, digit: true } }),
	tokenRule("sendgrid-api-key", ["sg."], /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, { cut: { start: /^SG\.[A-Za-z0-9_.-]{6,}$/, digit: true } }),
	// Its hints are `SK` and each hex digit: with `sk` alone (shorter than the scan's three) it ran on every string.
	tokenRule("twilio-api-key", [..."0123456789abcdef"].map((c) => `sk${c}`), /(?<![A-Za-z0-9_-])SK[0-9a-fA-F]{32}(?![A-Za-z0-9_-])/g),
	tokenRule("mailgun-api-key", ["key-"], /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9_-])/g),
	tokenRule("shopify-token", ["shpat_", "shpss_", "shpca_", "shppa_"], /(?<![A-Za-z0-9])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}(?![A-Za-z0-9_-])/g, { cut: { start: /^shp(?:at|ss|ca|pa)_[a-fA-F0-9]{2,}$/ } }),
	tokenRule("digitalocean-token", ["dop_v1_", "doo_v1_", "dor_v1_"], /(?<![A-Za-z0-9])do[por]_v1_[a-f0-9]{64}(?![A-Za-z0-9_-])/g, { cut: { start: /^do[por]_v1_[a-f0-9]{2,}$/ } }),
	// Other model providers' keys: pasted into agent sessions as often as the two above.
	tokenRule("openrouter-api-key", ["sk-or-v1-"], /(?<![A-Za-z0-9])sk-or-v1-[0-9a-f]{64}(?![A-Za-z0-9_-])/g, { cut: { start: /^sk-or-v1-[0-9a-f]{2,}$/ } }),
	// DeepSeek's: `sk-` and 32 lower-case hex (the OpenAI rule wants mixed case).
	tokenRule("deepseek-api-key", ["sk-"], /(?<![A-Za-z0-9_-])sk-[0-9a-f]{32}(?![A-Za-z0-9_-])/g, { valid: (m) => /[a-f]/.test(m.slice(3)) && /\d/.test(m.slice(3)) }),
	tokenRule("groq-api-key", ["gsk_"], /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{52}(?![A-Za-z0-9_-])/g, { cut: { start: /^gsk_[A-Za-z0-9]{2,}$/ } }),
	tokenRule("xai-api-key", ["xai-"], /(?<![A-Za-z0-9])xai-[A-Za-z0-9]{70,90}(?![A-Za-z0-9_-])/g, { cut: { start: /^xai-[A-Za-z0-9]{6,}$/, digit: true } }),
	tokenRule("perplexity-api-key", ["pplx-"], /(?<![A-Za-z0-9])pplx-[A-Za-z0-9]{40,60}(?![A-Za-z0-9_-])/g, { cut: { start: /^pplx-[A-Za-z0-9]{2,}$/ } }),
	tokenRule("replicate-api-token", ["r8_"], /(?<![A-Za-z0-9])r8_[A-Za-z0-9]{37}(?![A-Za-z0-9_-])/g, { valid: (m) => /\d/.test(m.slice(3)), cut: { start: /^r8_[A-Za-z0-9]{6,}$/, digit: true } }),
	// Developer services met in the same sessions.
	tokenRule("linear-api-key", ["lin_api_"], /(?<![A-Za-z0-9])lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9_-])/g, { cut: { start: /^lin_api_[A-Za-z0-9]{2,}$/ } }),
	tokenRule("notion-token", ["ntn_"], /(?<![A-Za-z0-9])ntn_[A-Za-z0-9]{40,50}(?![A-Za-z0-9_-])/g, { cut: { start: /^ntn_[A-Za-z0-9]{6,}$/, digit: true } }),
	tokenRule("supabase-token", ["sbp_"], /(?<![A-Za-z0-9])sbp_[0-9a-f]{40}(?![A-Za-z0-9_-])/g, { cut: { start: /^sbp_[0-9a-f]{2,}$/ } }),
	tokenRule("sentry-token", ["sntrys_", "sntryu_"], /(?<![A-Za-z0-9])(?:sntrys_[A-Za-z0-9+/=_]{40,400}|sntryu_[0-9a-f]{64})(?![A-Za-z0-9_-])/g, { cut: { start: /^sntry[su]_[A-Za-z0-9]{2,}$/ } }),
	tokenRule("grafana-token", ["glsa_", "glc_"], /(?<![A-Za-z0-9])(?:glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9_-])/g, { cut: { start: /^(?:glsa_[A-Za-z0-9]{6,}(?:_[0-9a-f]*)?|glc_[A-Za-z0-9+/]{6,})$/, digit: true } }),
	tokenRule("vault-token", ["hvs.", "hvb."], /(?<![A-Za-z0-9])hv[sb]\.[A-Za-z0-9_-]{24,400}/g, { cut: { start: /^hv[sb]\.[A-Za-z0-9_-]{6,}$/, digit: true } }),
	tokenRule("postman-api-key", ["pmak-"], /(?<![A-Za-z0-9])PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![A-Za-z0-9_-])/g, { cut: { start: /^PMAK-[0-9a-f-]{2,}$/ } }),
	tokenRule("newrelic-api-key", ["nrak-"], /(?<![A-Za-z0-9])NRAK-[A-Z0-9]{27}(?![A-Za-z0-9_-])/g, { cut: { start: /^NRAK-[A-Z0-9]{2,}$/ } }),
	tokenRule("atlassian-api-token", ["atatt3"], /(?<![A-Za-z0-9])ATATT3[A-Za-z0-9_=-]{100,300}/g, { cut: { start: /^ATATT3[A-Za-z0-9_=-]{2,}$/ } }),
	tokenRule("databricks-token", ["dapi"], /(?<![A-Za-z0-9])dapi[0-9a-f]{32}(?:-\d)?(?![A-Za-z0-9_-])/g, { valid: (m) => /\d/.test(m.slice(4)), cut: { start: /^dapi[0-9a-f]{6,}$/, digit: true } }),
	tokenRule("doppler-token", ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct."], /(?<![A-Za-z0-9])dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{40,44}(?![A-Za-z0-9_-])/g, { cut: { start: /^dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{2,}$/ } }),
	tokenRule("pulumi-token", ["pul-"], /(?<![A-Za-z0-9])pul-[0-9a-f]{40}(?![A-Za-z0-9_-])/g, { valid: (m) => /\d/.test(m.slice(4)), cut: { start: /^pul-[0-9a-f]{6,}$/, digit: true } }),
	tokenRule("fly-token", ["fo1_"], /(?<![A-Za-z0-9])fo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, { cut: { start: /^fo1_[A-Za-z0-9_-]{6,}$/, digit: true } }),
	tokenRule("cloudflare-origin-ca-key", ["v1.0-"], /(?<![A-Za-z0-9])v1\.0-[0-9a-f]{24}-[0-9a-f]{146}(?![A-Za-z0-9_-])/g, { cut: { start: /^v1\.0-[0-9a-f]{6,}(?:-[0-9a-f]*)?$/, digit: true } }),
	// Also in the API's URLs, right after `/bot`.
	tokenRule("telegram-bot-token", [":aa"], /(?:(?<=\/bot)|(?<![A-Za-z0-9:]))\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g, { cut: { start: /^(?:bot)?\d{8,10}:AA[A-Za-z0-9_-]*$/, keep: /^bot(?=\d)/ } }),
	// No prefix of its own: its first part is the bot's user id (17 to 20 digits) in base64, which
	// tells it from any other dotted name. Three digits in base64 are four characters of a few
	// each (`MTk4` is "198"): the pattern starts so, which keeps it cheap (0.7 ms a MB of text, measured).
	// Cut short by a clip, it is known from its first part and the `.` after it.
	tokenRule("discord-bot-token", ["."], /(?<![A-Za-z0-9_.-])[MNO][DTjz][AEIMQUYcgk][w-z0-5][A-Za-z0-9_-]{20,22}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])/g, {
		valid: (m) => isSnowflakeBase64(m.slice(0, m.indexOf("."))),
		cut: { start: /^[MNO][DTjz][AEIMQUYcgk][w-z0-5][A-Za-z0-9_-]{20,22}\.[A-Za-z0-9_-]{0,6}(?:\.[A-Za-z0-9_-]{0,38})?$/, valid: (token) => isSnowflakeBase64(token.slice(0, token.indexOf("."))) },
	}),
	// Heroku's API keys of the newer format (`HRKU-` and a UUID or 60-odd characters); the older bare UUID is known only after `heroku auth:token` (below).
	tokenRule("heroku-api-key", ["hrku-"], /(?<![A-Za-z0-9])HRKU-[A-Za-z0-9_-]{36,80}(?![A-Za-z0-9_-])/g, { cut: { start: /^HRKU-[A-Za-z0-9_-]{2,}$/ } }),
	// Laravel's APP_KEY as `php artisan key:generate` makes it (`APP_KEY=`, `Application key […] set`, `--show`): `base64:` and the 32 bytes
	// of an AES-256 key (16 of an AES-128 one), padded as PHP pads. The prefix, with exactly a key's length, names nothing else.
	tokenRule("laravel-app-key", ["base64:"], /(?<![A-Za-z0-9])base64:(?:[A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{22}==)(?![A-Za-z0-9+/=])/g, {
		// Cut short: what is left after the prefix (whose own digits say nothing) is random-looking.
		cut: { start: /^base64:[A-Za-z0-9+/]{8,}$/, valid: (token) => randomLooking(token.slice(7)) },
	}),
	// A kubeconfig's client key: the PEM of a private key, base64-encoded whole.
	// YAML (`client-key-data: …`) or JSON (`"client-key-data": "…"`, what `kubectl config view --raw -o json` prints).
	valueRule("private-key", ["client-key-data"], /(?<pre>client-key-data\\?["']?[ \t]*:[ \t]*\\?["']?)(?<val>[A-Za-z0-9+/]{40,20000}={0,2})/g),
	tokenRule("aws-access-key", ["akia", "asia", "abia", "acca"], /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, { cut: { start: /^(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{2,}$/ } }),
	valueRule(
		"aws-secret-access-key",
		["secret_access_key", "secretaccesskey", "aws_secret_key", "awssecretkey"],
		/(?<![A-Za-z0-9_])(?<pre>\\?["']?(?:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)\\?["']?[ \t]*[:=][ \t]*\\?["']?)(?<val>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
	),
	valueRule("azure-storage-key", ["accountkey="], /(?<pre>AccountKey=)(?<val>[A-Za-z0-9+/]{20,200}={0,2})/g),
	...ROUND_46A_TOKEN_RULES,
];

// Private keys ----------------------------------------------------------------------------------

const PEM_BEGIN_RE = /-----BEGIN [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * What may stand before a line of a key where it was shown: Markdown quote marks (`> `), then the
 * line number a file viewer gives it (Claude Code's Read: `     2\t…`, older clients `     2→…`).
 */
const PEM_LINE_PREFIX = String.raw`[ \t]*(?:>[ \t]*){0,8}(?:\d{1,7}(?:\t|→))?[ \t]*`;
/**
 * A newline's escape, `\n`, as JSON writes it once or as JSON inside JSON writes it again (`\\n`,
 * `\\\\n`: a key file held as a string in kubectl's `last-applied-configuration`, a Terraform state).
 */
const ESCAPED = String.raw`\\{1,8}`;
/**
 * The lines of a PEM body after the BEGIN line, separated by real (LF, CRLF or a lone CR) or
 * escaped newlines (see `ESCAPED`): base64 lines and `Proc-Type: …` header lines, each running to the end of
 * its line (or a closing quote). Every repetition starts with a newline, so it cannot backtrack
 * into itself.
 */
const PEM_BODY_RE = new RegExp(String.raw`(?:(?:\r?\n|\r|${ESCAPED}r${ESCAPED}n|${ESCAPED}n)${PEM_LINE_PREFIX}(?:[A-Za-z0-9+/=]{1,200}|[A-Za-z-]{1,30}: [^\r\n\\]{0,200})?(?=[ \t]*(?:\r?\n|\r|${ESCAPED}[rn"']|["'\x60]|$)))*`, "y");
const PEM_END_RE = new RegExp(String.raw`(?:\s|${ESCAPED}[rn]){0,16}${PEM_LINE_PREFIX}-----END [A-Z0-9 ]{0,40}?PRIVATE KEY(?: BLOCK)?-----`, "y");
const BASE64_RUN_RE = /[A-Za-z0-9+/]{20}/;
/** A key on one line (its newlines made spaces, as in a `.env` value): how far its body may run. */
const ONE_LINE_BODY_MAX = 16_384;

/**
 * PEM private keys: BEGIN line, body and END line become one marker. A key cut short (no END
 * line right after its body) loses its BEGIN line and the base64 lines that follow; prose after
 * it stays. A BEGIN line without a base64 line of 20+ characters (a mention in code) stays.
 */
function redactPrivateKeys(text: string, tally: (kind: string) => void): string {
	if (!text.includes("PRIVATE KEY")) return text;
	const parts: string[] = [];
	let last = 0;
	PEM_BEGIN_RE.lastIndex = 0;
	for (let m = PEM_BEGIN_RE.exec(text); m !== null; m = PEM_BEGIN_RE.exec(text)) {
		const bodyStart = m.index + m[0].length;
		PEM_BODY_RE.lastIndex = bodyStart;
		let bodyEnd = trimEndOfBody(text, bodyStart, bodyStart + (PEM_BODY_RE.exec(text)?.[0].length ?? 0));
		// No line of a body: the key may be on the BEGIN line's own line, its base64 runs apart by spaces.
		if (bodyEnd === bodyStart) bodyEnd = trimEndOfBody(text, bodyStart, oneLineBodyEnd(text, bodyStart));
		const body = text.slice(bodyStart, bodyEnd);
		PEM_END_RE.lastIndex = bodyEnd;
		const endLine = PEM_END_RE.exec(text);
		const end = endLine ? bodyEnd + endLine[0].length : bodyEnd;
		PEM_BEGIN_RE.lastIndex = end;
		if (!BASE64_RUN_RE.test(body)) continue;
		parts.push(text.slice(last, m.index), redactionMarker("private-key"));
		last = end;
		tally("private-key");
	}
	if (parts.length === 0) return text;
	parts.push(text.slice(last));
	return parts.join("");
}

/** Where a body of base64 runs and blanks on one line ends (`ONE_LINE_BODY_MAX` at most). */
function oneLineBodyEnd(text: string, start: number): number {
	const limit = Math.min(text.length, start + ONE_LINE_BODY_MAX);
	let i = start;
	for (; i < limit; i++) {
		const c = text.charCodeAt(i);
		const base64 = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d;
		if (!base64 && c !== 0x20 && c !== 0x09) break;
	}
	return i;
}

/** The end of a truncated PEM body without its trailing blank lines. */
function trimEndOfBody(text: string, start: number, end: number): number {
	let e = end;
	while (e > start) {
		const c = text[e - 1];
		if (c === " " || c === "\t" || c === "\n" || c === "\r") e--;
		else if ((c === "n" || c === "r") && text[e - 2] === "\\" && e - 2 >= start) {
			// The escape's backslashes, however many (see `ESCAPED`).
			e -= 2;
			while (e > start && text[e - 1] === "\\") e--;
		} else break;
	}
	return e;
}

// Credentials in URLs and headers ---------------------------------------------------------------

/** A digit, a colon and what may start a database's name: where a `.pgpass` line's port ends. */
const PGPASS_HINTS = [..."0123456789"].flatMap((d) => [..."abcdefghijklmnopqrstuvwxyz_*"].map((c) => `${d}:${c}`));

/**
 * A command line's argument may be quoted as the shell quotes it (`"…"`, `'…'`) or as JSON writes
 * a `"` inside a string (`\"…\"`: a command embedded in a tool's JSON input, a log line).
 * `OPEN_QUOTE`: the opening quote, if any. `ARG_VALUE`: the argument's text, a backslash only where
 * it escapes no quote (a JSON-escaped argument's closing `\"` is not its own); it never starts
 * with one (that took the `\` of `\"` for the password, and the password after it stayed).
 */
const OPEN_QUOTE = String.raw`(?:\\?["'])?`;
const ARG_CHAR = String.raw`(?:[^\s"'\x60;|&\\]|\\(?!["']))`;
const ARG_VALUE = String.raw`(?<val>[^\s"'\x60;|&\\]${ARG_CHAR}{0,255})`;
/**
 * printf's format string before the value it prints (`printf '%s\n' X`, `printf \"%s\\n\" X` in
 * JSON): `%s` and line ends, quoted or not. Without it the format was the value (`%s` stays: a `%`
 * starts a reference) and the value after it was kept.
 */
const PRINTF_FORMAT = String.raw`(?:(?:'%s(?:\\{1,2}[nr]){0,2}'|\\?"%s(?:\\{1,2}[nr]){0,2}\\?"|%s)[ \t]+)?`;
/** `echo [-n] `, `printf [FORMAT] `: what prints a value into a pipe. */
const ECHO_START = String.raw`\b(?:echo[ \t]+(?:-[neE]{1,3}[ \t]+)?|printf[ \t]+${PRINTF_FORMAT})`;
/** A value echoed into a command (`echo X |`, `printf '%s' X |`, quoted as above): the text up to the pipe's command, as a pattern's source. */
const ECHOED = String.raw`(?<pre>${ECHO_START}${OPEN_QUOTE})(?<val>[^\s"'$|;&\x60<>\\-](?:[^\s"'$|;&\x60<>\\]|\\(?!["'])){0,255})(?=(?:\\?["'])?[ \t]*\|[ \t]*`;
/** `user:` and the password after it, as a command line gives them to `base64` or `chpasswd`. */
const BASIC_USER = String.raw`[^\s:"'$|;&\x60[\]\\]{1,128}:`;
const BASIC_PASSWORD = String.raw`(?<val>(?:[^\s"'|;&\x60\\]|\\(?!["'])){1,256})`;
/** sudo's flags up to `-S` (`--stdin`), which makes it read the password from stdin: `-S` among sudo's first flags (`pacman -S` is no sudo's). */
const SUDO_STDIN = String.raw`(?:[ \t]+(?:-[A-Za-z]{1,8}|-[ugp][ \t]+[A-Za-z0-9_.%-]{1,32})){0,4}?[ \t]+(?:-[A-Za-z]{0,8}S[A-Za-z]{0,8}|--stdin)(?![\w-])`;
/** The name's keyword and the blank after it (found case-insensitively, see `rulesPass`). */
const CONFIG_LINE_HINTS = ["password", "passwd", "passphrase", "requirepass", "_pass", ".pass", "pwd", "secret", "token", "_key", ".key", "-key", "apikey", "masterauth", "_auth", ".auth"].flatMap((k) => [`${k} `, `${k}\t`]);
/** Redis's directives whose value is a password, whatever it looks like. */
const REDIS_PASSWORD_DIRECTIVES = new Set(["requirepass", "masterauth"]);
/** What may open a configuration's line before its name: blanks, a file viewer's line number (`  12→`). */
const CONFIG_LINE_HEAD_RE = /^[ \t]*(?:\d{1,7}(?:\t|→)[ \t]*)?$/;
/** A command's password option and its argument: `pre` (a literal-led pattern's source, up to the option) and the value, quoted or not. */
const commandValue = (pre: string): RegExp => new RegExp(String.raw`(?<pre>${pre}${OPEN_QUOTE})${ARG_VALUE}`, "g");

const CONTEXT_RULES: readonly Rule[] = [
	{
		// scheme://user:password@host — the user part has no ':', so the first ':' splits them (see `urlPassword`).
		kind: "connection-string-password",
		hints: ["://"],
		pattern: /(?<![A-Za-z0-9+.-])(?<pre>[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:/?#@"'<>[\]\\]{0,128}:)(?<val>[^\s"'<>[\]\\]{1,256})/g,
		decide: (m) => {
			const pre = m.groups?.pre ?? "";
			const password = urlPassword(m.groups?.val ?? "");
			if (password === undefined || isNotSecret(password, "password")) return undefined;
			return { end: m.index + pre.length + password.length, replacement: pre + redactionMarker("connection-string-password"), kind: "connection-string-password" };
		},
	},
	{
		// Authorization: Bearer …, "authorization": "Basic …", -H 'Proxy-Authorization: token …'
		kind: "bearer-token",
		hints: ["authorization"],
		pattern: /(?<![A-Za-z0-9_-])(?<pre>(?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*(?:[fFrRbB]?\\?["'`])?[ \t]*(?<scheme>bearer|token|bot|basic)[ \t]+)(?<val>[A-Za-z0-9._~+/-]{1,4096}=*)/gi,
		decide: (m) => {
			const pre = m.groups?.pre ?? "";
			const val = m.groups?.val ?? "";
			if (isNotSecret(val, "secret") || val.length < 8) return undefined;
			const kind = (m.groups?.scheme ?? "").toLowerCase() === "basic" ? "basic-auth" : "bearer-token";
			return { end: m.index + pre.length + val.length, replacement: pre + redactionMarker(kind), kind };
		},
	},
	// A bare "Bearer <long token>" in a log line.
	valueRule(
		"bearer-token",
		["bearer"],
		/(?<![A-Za-z0-9_-])(?<pre>bearer[ \t]+)(?<val>[A-Za-z0-9._~+/-]{20,4096}=*)/gi,
		(v) => /\d/.test(v) && /[A-Za-z]/.test(v) && !isNotSecret(v, "secret"),
	),
	// mysql -pPASSWORD (the password glued to -p; `-p` alone asks for it)
	valueRule(
		"password",
		["mysql", "mariadb"],
		commandValue(String.raw`\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump|mariadb-admin)\b[^\n;|&]{0,256}?[ \t]-p`),
		(v) => !isNotSecret(v, "password"),
	),
	// A password given as a command's option, a blank before it: `sshpass -p …`, `redis-cli -a …`,
	// `docker login -p …` / `--password …` (and podman, nerdctl, helm, buildah, skopeo); quoted or not.
	valueRule("password", ["sshpass"], commandValue(String.raw`\bsshpass\b[^\n;|&]{0,64}?[ \t]-p[ \t]*`), (v) => !isNotSecret(v, "password")),
	valueRule("password", ["redis-cli"], commandValue(String.raw`\bredis-cli\b[^\n;|&]{0,256}?[ \t](?:-a|--pass)[ \t]+`), (v) => !isNotSecret(v, "password")),
	valueRule(
		"password",
		["login"],
		commandValue(String.raw`\b(?:docker|podman|nerdctl|helm(?:[ \t]+registry)?|buildah|skopeo)[ \t]+login\b[^\n;|&]{0,256}?[ \t](?:-p|--password)(?:[ \t]+|=)`),
		(v) => !isNotSecret(v, "password") && v !== "-" && !v.startsWith("--"),
	),
	// `aws configure set aws_secret_access_key …`, `npm config set //registry/:_authToken …`: a key of a secret, a blank, its value.
	valueRule(
		"secret",
		["config"],
		new RegExp(String.raw`(?<pre>\b(?:aws[ \t]+configure|(?:npm|pnpm|yarn)[ \t]+config)[ \t]+set[ \t]+(?:--?[A-Za-z-]+(?:[ \t]+|=)[^\s-]\S*[ \t]+)*\S*(?:secret|token|password|_auth)\S*[ \t]+${OPEN_QUOTE})${ARG_VALUE}`, "gi"),
		(v) => !isNotSecret(v, "secret"),
	),
	// curl -u user:password, --user=user:password (hints: what the pattern starts with, three characters at least, so it does not run on every string)
	valueRule(
		"basic-auth",
		["-u ", "-u\t", "-u=", "--user"],
		new RegExp(String.raw`(?<!\S)(?<pre>(?:-u|--user)(?:[ \t]+|=)${OPEN_QUOTE}(?:[^\s:"'$[\]\\]|\\{1,2}(?=[A-Za-z0-9_])){1,128}:)(?<val>(?:[^\s"'\\]|\\(?!["'])){1,256})`, "g"),
		(v) => !isNotSecret(v, "password"),
	),
	// A bare `Basic <base64>` (a header built in code, a log line), known by what it decodes to: `user:password`.
	valueRule(
		"basic-auth",
		["basic"],
		/(?<![A-Za-z0-9_-])(?<pre>basic[ \t]+)(?<val>[A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=_.-])/gi,
		(v) => decodesToCredentials(v),
	),
	// The credentials a command line encodes for a Basic header: `echo -n user:password | base64`, `base64 <<< user:password`; quoted as a
	// command line is (`\"…\"` inside a JSON string too: a backslash in them only where it escapes no quote, see `OPEN_QUOTE`).
	valueRule(
		"basic-auth",
		["base64"],
		new RegExp(String.raw`(?<pre>${ECHO_START}${OPEN_QUOTE}${BASIC_USER})${BASIC_PASSWORD}(?=(?:\\?["'])?[ \t]*\|[ \t]*base64\b)`, "g"),
		(v) => !isNotSecret(v, "password"),
	),
	valueRule("basic-auth", ["base64"], new RegExp(String.raw`(?<pre>\bbase64[ \t]+<<<[ \t]*${OPEN_QUOTE}${BASIC_USER})${BASIC_PASSWORD}`, "g"), (v) => !isNotSecret(v, "password")),
	// A command's password flag of its own, a blank before the value: MongoDB's tools `-p`, sqlcmd's,
	// bcp's, mosquitto's and ipmitool's `-P`, the OpenLDAP tools' `-w`, `az login -p`, Samba's `-U user%password`.
	valueRule("password", ["mongo"], commandValue(String.raw`\bmongo(?:sh|dump|restore|import|export|stat|top|files)?\b[^\n;|&]{0,256}?[ \t]-p[ \t]+`), (v) => !isNotSecret(v, "password") && !v.startsWith("-"), true),
	valueRule("password", ["sqlcmd", "bcp", "mosquitto_", "ipmitool"], commandValue(String.raw`\b(?:sqlcmd|bcp|mosquitto_(?:pub|sub|rr)|ipmitool)\b[^\n;|&]{0,256}?[ \t]-P[ \t]*`), (v) => !isNotSecret(v, "password") && !v.startsWith("-"), true),
	valueRule("password", ["ldap"], commandValue(String.raw`\bldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn|exop|url)\b[^\n;|&]{0,256}?[ \t]-w[ \t]+`), (v) => !isNotSecret(v, "password") && !v.startsWith("-"), true),
	valueRule("password", ["az login"], commandValue(String.raw`\baz[ \t]+login\b[^\n;|&]{0,256}?[ \t]-p[ \t]+`), (v) => !isNotSecret(v, "password") && !v.startsWith("-"), true),
	// Sysinternals' `psexec \\HOST -u USER -p PASSWORD` (`-p` always takes one: without it, it asks).
	valueRule("password", ["psexec"], commandValue(String.raw`\bpsexec(?:64)?(?:\.exe)?(?=[ \t])[^\n;|&]{0,256}?[ \t]-p[ \t]+`), (v) => !isNotSecret(v, "password") && !v.startsWith("-"), true),
	// Windows' `cmdkey /add:TARGET /user:USER /pass:PASSWORD` (`/generic:`, `/smartcard`; `/pass` without a value asks); its switches in any case.
	valueRule("password", ["cmdkey"], new RegExp(String.raw`(?<pre>\bcmdkey(?:\.exe)?(?=[ \t])[^\n;|&]{0,256}?[ \t]/pass:${OPEN_QUOTE})${ARG_VALUE}`, "gi"), (v) => !isNotSecret(v, "password"), true),
	// `curl --oauth2-bearer TOKEN`: the token of an `Authorization: Bearer` header curl makes.
	valueRule("bearer-token", ["oauth2-bearer"], commandValue(String.raw`(?<![\w-])--oauth2-bearer(?:[ \t]+|=)`), (v) => !isNotSecret(v, "secret") && !v.startsWith("-")),
	valueRule("password", ["smbclient", "rpcclient", "smbget", "smbcacls"], new RegExp(String.raw`(?<pre>\b(?:smbclient|rpcclient|smbget|smbcacls)\b[^\n;|&]{0,256}?[ \t](?:-U|--user)(?:[ \t]+|=)${OPEN_QUOTE}[^\s%"'\\]{1,128}%)${ARG_VALUE}`, "g"), (v) => !isNotSecret(v, "password"), true),
	// `lftp -u USER,PASSWORD host`, also `open -u USER,PASSWORD` among its `-e` commands (`;` between them): the password after the comma (`-u USER` alone asks).
	valueRule("password", ["lftp"], new RegExp(String.raw`(?<pre>\blftp\b[^\n|&]{0,256}?[ \t](?:-u|--user)(?:[ \t]+|=)${OPEN_QUOTE}[^\s,"'\\]{1,128},${OPEN_QUOTE})${ARG_VALUE}`, "g"), (v) => !isNotSecret(v, "password"), true),
	// What `heroku auth:token` prints, where the command and its output are one text (a terminal's): a UUID on a line of its own,
	// right after it or after the CLI's warning lines (` ›   Warning: …`). A bare UUID is an id anywhere else: the output alone stays.
	valueRule(
		"heroku-api-key",
		["auth:token"],
		/(?<pre>\bheroku[ \t]+auth:token\b[^\r\n]{0,128}(?:(?:\r?\n|\r)[ \t]{0,16}[›▸][^\r\n]{0,200}){0,4}(?:\r?\n|\r)[ \t]{0,16})(?<val>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?=[ \t]*(?:\r?\n|\r|$))/g,
	),
	// `gh secret set NAME --body VALUE`.
	valueRule("secret", ["secret set"], commandValue(String.raw`\bgh[ \t]+secret[ \t]+set\b[^\n;|&]{0,256}?[ \t](?:-b|--body)(?:[ \t]+|=)`), (v) => !isNotSecret(v, "secret") && !v.startsWith("-"), true),
	// A value echoed into what reads a secret on stdin: `… --password-stdin`, `gh secret set`, `gh auth login`, `wrangler secret put`, `vercel env add`, `passwd --stdin`; `user:password` into `chpasswd`.
	valueRule(
		"secret",
		["password-stdin", "secret set", "secret put", "auth login", "env add", "passwd --stdin"],
		new RegExp(String.raw`${ECHOED}(?:sudo[ \t]+)?(?:[a-z][a-z0-9-]{0,30}\b[^\n;|&]{0,256}?--password-stdin\b|gh[ \t]+(?:secret[ \t]+set|auth[ \t]+login)\b|(?:npx[ \t]+)?wrangler[ \t]+(?:pages[ \t]+)?secret[ \t]+put\b|vercel[ \t]+env[ \t]+add\b|passwd[ \t]+--stdin\b))`, "g"),
		(v) => !isNotSecret(v, "secret"),
	),
	// A password echoed into `sudo -S` (`--stdin`), which reads it from stdin; `-S` among sudo's first flags (`pacman -S` is no sudo's).
	// Its hints want the pipe before sudo: `sudo -` alone is in most transcripts, and the rule ran on all of them (measured).
	valueRule("password", ["| sudo -", "|sudo -"], new RegExp(String.raw`${ECHOED}sudo${SUDO_STDIN})`, "g"), (v) => !isNotSecret(v, "password")),
	// A password given to `sudo -S` as a here-string: `sudo -S <<< X cmd`, `sudo -kS cmd <<< "X"` (`<<<` is its hint: rare, and sudo -S's only way to it).
	valueRule("password", ["<<<"], new RegExp(String.raw`(?<pre>\bsudo${SUDO_STDIN}[^\n;|&<>]{0,256}?[ \t]*<<<[ \t]*${OPEN_QUOTE})${ARG_VALUE}`, "g"), (v) => !isNotSecret(v, "password")),
	valueRule("password", ["chpasswd"], new RegExp(String.raw`(?<pre>${ECHO_START}${OPEN_QUOTE}${BASIC_USER})${BASIC_PASSWORD}(?=(?:\\?["'])?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b)`, "g"), (v) => !isNotSecret(v, "password")),
	// A `.netrc` entry: `machine HOST login USER password SECRET`, on one line or several.
	// A quoted password (`"…"`, or `\"…\"` in a JSON string, `\\\"…\\\"` in JSON inside JSON) loses what is between its quotes; one written bare runs to a blank, or to a quote that
	// closes a string it is in (`echo "machine h … password X" >> ~/.netrc`: the `"` after X is no part of it).
	valueRule(
		"password",
		["machine"],
		/(?<pre>\bmachine[ \t]+\S{1,253}(?:\s+(?:login|account|port|protocol)[ \t]+\S{1,256}){0,4}\s+password[ \t]+(?:\\{0,7}["'])?)(?<val>(?<=["'])(?:[^"'\\\r\n]|\\{1,8}(?![\\"'])){1,256}(?=\\{0,7}["'])|(?<!["'])(?:[^\s"'\\]|\\{1,8}(?![\\"'])|["'](?=[^\s\\])){1,256})/g,
		(v) => !isNotSecret(v, "password"),
		true,
	),
	// SQL: `IDENTIFIED BY '…'`, `[WITH] PASSWORD '…'` (MySQL, Postgres, Oracle users and roles).
	valueRule("password", ["identified", "password '", 'password "'], /(?<pre>\b(?:identified[ \t]+(?:with[ \t]+[A-Za-z_]{1,40}[ \t]+)?by|password)[ \t]+\\?["'])(?<val>(?:[^"'\r\n\\]|\\(?!["'])){1,256})(?=\\?["'])/gi, (v) => !isNotSecret(v, "password"), true),
	{
		// `htpasswd -b[c] FILE USER PASSWORD`, `htpasswd -nb USER PASSWORD`: the password is an argument (see `htpasswdPassword`).
		kind: "password",
		hints: ["htpasswd"],
		pattern: /(?<![A-Za-z0-9_.-])htpasswd(?=[ \t])/g,
		decide: (m, text) => htpasswdPassword(text, m.index + m[0].length),
	},
	{
		// Commands whose password is an argument of their own shape: read from the parsed arguments (see `COMMAND_SECRETS`).
		kind: "password",
		// `vault login`, not `vault`: in an Obsidian user's transcripts the word is everywhere.
		hints: ["rabbitmqctl", "zip ", "zip.exe", "zipcloak", "7z ", "7za ", "7zr ", "7zz ", "7z.exe", "openssl", "vault login", "ssh-keygen", "sqlplus", "expdp", "impdp", "mysqladmin"],
		// The name's start is checked in `decide`: a look-behind first was tried at every position.
		pattern: /(?:rabbitmqctl|zip|unzip|zipcloak|7z[arz]?|openssl|vault(?=[ \t]+login\b)|ssh-keygen|sqlplus|expdp|impdp|mysqladmin)(?:\.exe|\.bat)?(?=[ \t])/g,
		decide: commandDecide,
	},
	// More of them, each a rule of its own with its own hints: as alternatives of the one above, they
	// slowed its pattern wherever any of its commands occurs (`net` and `mc` begin many words).
	commandRule(["net user", "net.exe user"], /(?:net|NET|Net)(?:\.exe)?(?=[ \t]+(?:user|USER|User)\b)/g),
	{
		// Windows' `net use [DEVICE] \\HOST\SHARE PASSWORD /user:NAME`: the password is the word after the share (see `netUsePassword`).
		kind: "password",
		hints: ["net use", "net.exe use"],
		pattern: /(?:net|NET|Net)(?:\.exe)?[ \t]+(?:use|USE|Use)(?=[ \t])/g,
		decide: (m, text) => (/[\w.-]/.test(text[m.index - 1] ?? "") ? undefined : netUsePassword(text, m.index + m[0].length)),
	},
	commandRule(["useradd", "usermod"], /user(?:add|mod)(?=[ \t])/g),
	commandRule(["rclone"], /rclone(?:\.exe)?(?=[ \t])/g),
	commandRule(["alias set", "config host"], /(?:mcli|mc)(?:\.exe)?(?=[ \t]+(?:alias|config)\b)/g),
	commandRule(["plink", "pscp", "psftp", "putty"], /(?:plink|pscp|psftp|putty)(?:\.exe)?(?=[ \t])/g),
	commandRule(["nmcli"], /nmcli(?=[ \t])/g),
	// Commands that set a variable, its name then its value after a blank (see `namedValue`): fish's `set -x`, Windows'
	// `setx`, csh's and launchctl's `setenv` (Apache's `SetEnv`), `dotnet user-secrets set`, `git config`.
	// fish's flags that export or scope a variable (`set -e`, bash's in most scripts, erases one).
	commandRule(["set -x", "set -g", "set -u", "set -l", "set --e", "set --g", "set --u"], /set(?=[ \t]+-)/g),
	commandRule(["setx"], /(?:setx|SETX)(?:\.exe)?(?=[ \t])/g),
	commandRule(["schtasks"], /(?:schtasks|SCHTASKS)(?:\.exe)?(?=[ \t])/g),
	commandRule(["setenv"], /(?:setenv|SetEnv)(?=[ \t])/g),
	commandRule(["user-secrets"], /user-secrets(?=[ \t])/g),
	commandRule(["git config"], /git(?=[ \t]+config[ \t])/g),
	// Commands that store a secret in a vault, its value an option's whatever its name: `az keyvault secret set --value`,
	// `aws secretsmanager … --secret-string`, `aws ssm put-parameter --type SecureString --value`; PowerShell's
	// `ConvertTo-SecureString "…" -AsPlainText`.
	commandRule(["az keyvault", "az.cmd keyvault"], /az(?:\.cmd)?(?=[ \t]+keyvault[ \t])/g),
	commandRule(["secretsmanager", "put-parameter"], /aws(?:\.exe)?(?=[ \t])/g),
	commandRule(["convertto-securestring"], /(?:ConvertTo-SecureString|convertto-securestring)(?=[ \t])/g),
	{
		// A Dockerfile's `ENV NAME value` (the older form, no `=`): an instruction opening its line.
		kind: "secret",
		hints: ["env "],
		pattern: /ENV(?=[ \t]+[A-Za-z_])/g,
		decide: (m, text) => (DOCKERFILE_LINE_RE.test(text.slice(Math.max(0, lineStart(text, m.index, 64)), m.index)) ? commandSecrets(text, "env", m.index + 3) : undefined),
	},
	{
		// A configuration's `name value` line, a blank between them (Java's `.properties`, Redis's
		// `requirepass`): where a name's keyword and a blank occur, each line's first word and what
		// follows it is read (see `configLine`).
		kind: "password",
		hints: CONFIG_LINE_HINTS,
		// A line of two words (a file viewer's line number before them); `m`: `^` is each line's start.
		pattern: /^[ \t]*(?:\d{1,7}(?:\t|→)[ \t]*)?[A-Za-z_][\w.:-]{0,63}[ \t]+(?=[^ \t\r\n])/gm,
		decide: (m, text) => configLine(text, m.index + m[0].length),
	},
	// A `.pgpass` line, `host:port:database:user:password`, as a line of its own (`cat ~/.pgpass`,
	// a file viewer's numbered line): five fields, the second a port (or `*`), the host a host's name.
	// Found from its `:port:` and a database's name (a letter, `_` or `*`: a time's `:00:00` is no
	// port), then its line is read once (see `pgpassLine`). Its hints are a port's last digit, the
	// colon and the name's first character (or `:*:`), found by the one scan of all hints: a scan
	// of its own for `:` in every string cost 10% of all redaction's time (measured).
	{
		kind: "password",
		hints: [...PGPASS_HINTS, ":*:"],
		pattern: /:(?:\d{2,5}|\*):(?=[A-Za-z_*])/g,
		decide: (m, text) => pgpassLine(text, m.index),
	},
	// The same line written into a `.pgpass` by a command: `echo "h:5432:db:u:pw" >> ~/.pgpass`, `… | tee -a ~/.pgpass`.
	{
		kind: "password",
		hints: [".pgpass"],
		pattern: /(?<pre>\b(?:echo|printf)[ \t]+(?:-[neE]{1,3}[ \t]+)?(?<q>["']?)[^\s:"']{1,253}:(?:\d{2,5}|\*):[^\s:"']{1,128}:[^\s:"']{1,128}:)(?<val>(?:[^\s:\\"']|\\.){1,256})(?=\k<q>[ \t]*(?:>{1,2}|\|[ \t]*(?:sudo[ \t]+)?tee\b[^\n;|&]{0,64}?)[ \t]*[^\s;|&]{0,256}?\.pgpass\b)/g,
		decide: (m) => pgpassEdit(m, (m.groups?.pre ?? "").length, m.groups?.pre ?? "", "password"),
	},
];

/** A command's secrets among its arguments (see `COMMAND_SECRETS`); the name's start is checked here: a look-behind first was tried at every position. */
function commandDecide(m: RegExpExecArray, text: string): (Edit & { kind: string }) | undefined {
	return /[\w.-]/.test(text[m.index - 1] ?? "") ? undefined : commandSecrets(text, m[0].toLowerCase().replace(/\.(?:exe|bat)$/, ""), m.index + m[0].length);
}

function commandRule(hints: readonly string[], pattern: RegExp): Rule {
	return { kind: "password", hints, pattern, decide: commandDecide };
}

/** A configuration's name: a key of `.properties` (`db.password`), of a Redis or an INI-like file. */
const CONFIG_NAME_RE = /[A-Za-z_](?:[\w.:-]{0,62}\w)?$/;
/** A word or a capitalised one: a heading's (`Token Budget`), not a value. */
const PROSE_WORD_RE = /^(?:[A-Za-z][a-z]{0,30}|[A-Z]{1,30})$/;

/**
 * The value of a line that is a name and one value, a blank between (`db.password Hq7…`,
 * `requirepass …`), the name naming a secret (`keyDescribesSecret`); `valueAt` is past the blank
 * after the name. A line with more words, a name that is not the line's first word, and
 * a value that is a word are prose. Only the value is replaced.
 */
function configLine(text: string, valueAt: number): (Edit & { kind: string }) | undefined {
	const start = lineStart(text, valueAt, 96);
	if (start < 0) return undefined;
	const before = text.slice(start, valueAt).trimEnd();
	const name = CONFIG_NAME_RE.exec(before)?.[0];
	if (name === undefined || !CONFIG_LINE_HEAD_RE.test(before.slice(0, before.length - name.length))) return undefined;
	const args = commandArgs(text, valueAt, 2);
	const value = args[0];
	if (value === undefined || args.length > 1 || !/^[ \t]*(?:\r?\n|\r|$)/.test(text.slice(value.end + (/["']/.test(text[value.end] ?? "") ? 1 : 0), value.end + 64))) return undefined;
	const directive = REDIS_PASSWORD_DIRECTIVES.has(name.toLowerCase());
	const kind = directive ? "password" : keyDescribesSecret(name.slice(name.lastIndexOf(":") + 1));
	// A separator alone is an assignment's (`key =`, its value on the next line), read by the rules of those.
	if (kind === undefined || isOption(value) || !/^[^=:][^]*[A-Za-z0-9]|^[A-Za-z0-9]/.test(value.value) || (!directive && PROSE_WORD_RE.test(value.value)) || isNotSecret(value.value, kind)) return undefined;
	if (kind === "key" && !looksRandom(value.value)) return undefined;
	return { start: value.start, end: value.end, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
}

/** A whole `.pgpass` line from its start; blanks bounded, or runs of them would backtrack against each other. */
const PGPASS_LINE_RE = /[ \t]{0,16}(?:>[ \t]{0,4}){0,8}(?:\d{1,7}(?:\t|→))?[ \t]{0,16}(?<pre>(?:\*|[A-Za-z0-9][A-Za-z0-9._-]{0,252}):(?:\d{2,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:)(?<val>(?:[^\s:\\]|\\.){1,256})(?=[ \t]*(?:\r?\n|\r|$))/y;

/** The password of the `.pgpass` line around `at`, or a skip to the line's end (each line is read once). */
function pgpassLine(text: string, at: number): (Edit & { kind: string }) | Skip | undefined {
	// The line's prefix, host and `:` are 300 characters at most.
	const start = lineStart(text, at, 320);
	PGPASS_LINE_RE.lastIndex = start;
	const m = start < 0 ? null : PGPASS_LINE_RE.exec(text);
	// With no more context than its shape, a plain lower-case word stays (grep's `app.ts:12:5:error:unused`).
	const edit = m === null ? undefined : pgpassEdit(m, m[0].length - (m.groups?.val ?? "").length, m.groups?.pre ?? "", "secret");
	return edit ?? { skipTo: lineEnd(text, at) };
}

/**
 * A `.pgpass` line's password, unless it is a placeholder (`*`, `password`, `<password>`) or a
 * reference, or the line is no `.pgpass` line: a host without a letter or a dot (`12:34:…`), or
 * every field a short hex group (a MAC address, an IPv6 address, a hex dump).
 */
function pgpassEdit(m: RegExpExecArray, valAt: number, pre: string, judgedAs: "password" | "secret"): (Edit & { kind: string }) | undefined {
	const val = m.groups?.val ?? "";
	const fields = pre.slice(0, -1).split(":");
	const host = fields[0]!.replace(/^.*[\s>→"']/, "");
	if (host !== "*" && !/[A-Za-z.]/.test(host)) return undefined;
	if ([host, ...fields.slice(1), val].every((f) => /^[0-9A-Fa-f]{1,4}$/.test(f))) return undefined;
	if (/^\*+$/.test(val) || isNotSecret(val, judgedAs)) return undefined;
	return { start: m.index + valAt, end: m.index + valAt + val.length, replacement: redactionMarker("password"), kind: "password" };
}

// Commands that take a password as an argument ----------------------------------------------------

/** An option that holds its value rather than describes it: its last word part names the secret (`--db-password`, not `--password-file`). */
const OPTION_SECRET_END_RE = /(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|APIKEY|API_KEY|ACCESS_KEY|ACCESSKEY|PRIVATE_KEY|PRIVATEKEY|(?:ENCRYPTION|SIGNING|MASTER|HMAC)_?KEY|(?:^|_)(?:PASS|PWD|AUTH))$/;
/** Options that switch something on rather than take a value: `--with-token` (reads stdin), `--no-password`, `--ask-pass`. */
const OPTION_SWITCH_RE = /^(?:with|no|ask|use|show|print|read|prompt|skip|require|generate)[-_]/i;
/** keytool's and Java's own: `-storepass`, `-keypass`, `-srcstorepass`, `-deststorepass`, `-new` (a new password). */
const JAVA_PASS_RE = /^(?:src|dest)?(?:store|key)pass$/i;

/**
 * A command's option that names a secret, its value after a blank: `--password Hq7…`,
 * `--api-key …`, `--client-secret …`, `-storepass …`, openssl's `-passout pass:…`. (`--key=value` is
 * an assignment.) A value that is an option, a reference or a placeholder stays, and so does one
 * after `--password` in a mysql command line (there it asks, and what follows is the database).
 */
const OPTION_RULE: Rule = {
	kind: "password",
	// The key's end and the blank after it (`--api-key `, `-storepass `), or openssl's `pass:`.
	hints: ["-password ", "-passwd ", "-passphrase ", "-secret ", "-token ", "-key ", "-pass ", "-pwd ", "-auth ", "apikey ", "authtoken ", "accesstoken ", "clientsecret ", "storepass ", "keypass ", "pass:"],
	// The value never starts with `-`: an option after an option is the next match.
	// A JSON-escaped quoted value (`--password \"…\"`, a command inside a JSON string) first: its `\` is no value.
	pattern: /(?<![\w\]-])--?(?<key>[A-Za-z][A-Za-z0-9_-]{1,48})[ \t]+(?<val>\\"[^"\\\r\n]{1,256}\\"|"[^"\r\n]{1,256}"|'[^'\r\n]{1,256}'|[^\s"'`;|&<>()\\-][^\s"'`;|&<>()]{0,255})/g,
	decide: (m, text) => {
		const { key = "", val = "" } = m.groups ?? {};
		if (!KEY_HINT_RE.test(key) || OPTION_SWITCH_RE.test(key)) return undefined;
		const quote = val.startsWith('\\"') ? '\\"' : val[0] === '"' || val[0] === "'" ? val[0] : "";
		let inner = quote === "" ? val : val.slice(quote.length, -quote.length);
		let at = m.index + m[0].length - val.length + quote.length;
		const norm = normalizeKey(key);
		// An option ending in a bare `KEY` (`--service-key`) or a plural (`--api-keys`) holds a secret when its value looks random (`keywordKind`).
		const named = keywordKind(norm);
		let kind = JAVA_PASS_RE.test(key) ? "password" : OPTION_SECRET_END_RE.test(norm) || named === "key" ? named : undefined;
		// openssl's passphrase arguments (`-passin`, `-passout`): `pass:…` holds it; `env:`, `file:`, `fd:` and `stdin` say where it is.
		if (inner.startsWith("pass:")) {
			kind = "password";
			inner = inner.slice(5);
			at += 5;
		} else if (/^(?:env|file|fd):|^stdin$/.test(inner)) return undefined;
		if (kind === undefined || isNotSecret(inner, kind)) return undefined;
		if (key.toLowerCase() === "password" && /^[a-z_]{1,30}$/.test(inner) && /\b(?:mysql|mysqldump|mysqladmin|mariadb)\b/.test(text.slice(Math.max(lineStart(text, m.index, 256), m.index - 256), m.index))) return undefined;
		return { start: at, end: at + inner.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
	},
};

/**
 * Where the line holding `index` starts, looked for at most `max` characters back; -1 when it is
 * further. (`lastIndexOf` a line end the text lacks ran back to its start at every match: 1.4 MB
 * of `mysql --password x` took 39 s.)
 */
function lineStart(text: string, index: number, max: number): number {
	const stop = Math.max(0, index - max);
	for (let i = index; i > stop; i--) {
		const c = text.charCodeAt(i - 1);
		if (c === 0x0a || c === 0x0d) return i;
	}
	return stop === 0 ? 0 : -1;
}

/** An attribute of a start tag: its name, and its value quoted, bare or none (`<input disabled>`). */
const XML_ATTRIBUTE = String.raw`[A-Za-z_:][\w.:-]{0,63}(?:\s{0,16}=\s{0,16}(?:"[^"<>]{0,1024}"|'[^'<>]{0,1024}'|[^\s"'<>=\x60/{}]{1,256}))?`;
const XML_ATTRIBUTE_RE = /(?<name>[A-Za-z_:][\w.:-]{0,63})(?:\s{0,16}=\s{0,16}(?:"(?<dq>[^"<>]{0,1024})"|'(?<sq>[^'<>]{0,1024})'|(?<bare>[^\s"'<>=`/{}]{1,256})))?/g;
/** Attributes that name their element (`<entry key="db.password">`, `<property name="password">`, `<add key="ApiKey" value="…"/>`). */
const XML_NAMING_ATTRIBUTE_RE = /(?:^|\s)(?:key|name)\s{0,16}=/i;

/**
 * `<password>…</password>`, `<ApiKey>…</ApiKey>`: an XML element named after a secret (Maven's
 * `settings.xml`, .NET's config), its value on the tags' line or, as a formatter writes it, on a
 * line of its own between them; there one run without blanks (words there are prose, a JSX
 * component's text). Its start tag may have attributes (`<password type="text">`), over lines
 * too; one of them may name it (`<entry key="token">…</entry>`, Hibernate's `<property
 * name="…password">`), and then a `value` attribute, if any, holds the secret (.NET's `<add
 * key="ApiKey" value="…"/>`, in any order, other attributes between).
 */
const XML_ELEMENT_RULE: Rule = {
	kind: "password",
	// The end of the opening or closing tag, and the attributes that name an element or hold its value.
	hints: ["password>", "passwd>", "passphrase>", "secret>", "token>", "key>", "pass>", "pwd>", "auth>", 'key="', "key='", 'name="', "name='", 'value="', "value='"],
	pattern: new RegExp(
		String.raw`<(?<key>[A-Za-z_][\w.:-]{0,63})(?<attrs>(?:\s{1,64}${XML_ATTRIBUTE}){0,16})\s{0,64}\/?>(?:(?:(?<pre>(?:\r?\n|\r)[ \t]{0,64})(?<own>[^\s<>]{1,1024})(?:\r?\n|\r)[ \t]{0,64}|(?<val>[^<>\r\n]{1,1024}))<\/(?<close>[A-Za-z_][\w.:-]{0,63})>)?`,
		"g",
	),
	decide: (m, text) => {
		const { key = "", attrs = "", pre = "", own, close } = m.groups ?? {};
		const named = keyDescribesSecret(key.slice(key.lastIndexOf(":") + 1));
		const attributes = attrs !== "" && XML_NAMING_ATTRIBUTE_RE.test(attrs) ? namingAttributes(attrs) : undefined;
		if (attributes?.kind !== undefined && attributes.value !== undefined) {
			const { kind, value } = attributes;
			if (isNotSecret(value.text, kind)) return undefined;
			const start = m.index + 1 + key.length + value.at;
			return { start, end: start + value.text.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
		}
		const kind = named ?? attributes?.kind;
		const val = own ?? m.groups?.val;
		if (attributes?.kind !== undefined && val === undefined && close === undefined) return valueChild(text, m.index + m[0].length, attributes.kind);
		if (kind === undefined || val === undefined || close !== key || isNotSecret(val, kind)) return undefined;
		// The start tag ends at its first `>` (none is in an attribute's value).
		const start = m.index + m[0].indexOf(">") + 1 + pre.length;
		return { start, end: start + val.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
	},
};

/**
 * An element a `name` or `key` attribute names whose value is a `<value>` element in it, on its
 * line or the next: .NET's `<setting name="ApiKey" serializeAs="String"><value>…</value>`, Spring's
 * `<property name="password"><value>…</value></property>`.
 */
const VALUE_CHILD_RE = /\s{0,256}<value>(?<pre>(?:\r?\n|\r)[ \t]{0,64})?(?<val>[^\s<>]{1,1024})(?:\r?\n|\r)?[ \t]{0,64}<\/value>/y;

function valueChild(text: string, at: number, kind: KeyKind): (Edit & { kind: string }) | undefined {
	VALUE_CHILD_RE.lastIndex = at;
	const child = VALUE_CHILD_RE.exec(text);
	const val = child?.groups?.val;
	if (child === null || val === undefined || isNotSecret(val, kind)) return undefined;
	const start = at + child[0].indexOf(">") + 1 + (child.groups?.pre ?? "").length;
	return { start, end: start + val.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
}

/** What a start tag's attributes say: the kind of secret a `key` or `name` names, and its `value` attribute (its text and where it is in `attrs`). */
function namingAttributes(attrs: string): { kind?: KeyKind; value?: { text: string; at: number } } {
	const out: { kind?: KeyKind; value?: { text: string; at: number } } = {};
	XML_ATTRIBUTE_RE.lastIndex = 0;
	for (let a = XML_ATTRIBUTE_RE.exec(attrs); a !== null; a = XML_ATTRIBUTE_RE.exec(attrs)) {
		const { name = "", dq, sq, bare } = a.groups ?? {};
		const text = dq ?? sq ?? bare;
		if (text === undefined) continue;
		const lower = name.toLowerCase();
		if (lower === "key" || lower === "name") out.kind ??= keyDescribesSecret(text);
		else if (lower === "value") out.value = { text, at: a.index + a[0].length - text.length - (bare === undefined ? 1 : 0) };
	}
	return out;
}

/** `key="ClearTextPassword" value="…"`, `name="password" value="…"`: a name and a value as attributes (NuGet, .NET `appSettings`, Ant, Spring). */
const XML_NAME_VALUE_RULE: Rule = {
	kind: "password",
	hints: ['value="', "value='"],
	pattern: /(?<![\w\]-])(?:key|name)[ \t]*=[ \t]*["'](?<key>[A-Za-z_][A-Za-z0-9_.:-]{0,63})["'][ \t]+value[ \t]*=[ \t]*["'](?<val>[^"'\r\n]{1,1024})(?=["'])/gi,
	decide: (m) => {
		const { key = "", val = "" } = m.groups ?? {};
		const kind = keyDescribesSecret(key);
		if (kind === undefined || isNotSecret(val, kind)) return undefined;
		const start = m.index + m[0].length - val.length;
		return { start, end: start + val.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
	},
};

/**
 * A setter's call that names a secret in a string and gives its value in the next string:
 * PowerShell's and .NET's `[Environment]::SetEnvironmentVariable("OPENAI_API_KEY", "…", "User")`,
 * Go's `os.Setenv`, Python's `os.environ.setdefault`, Java's `System.setProperty`, `putenv`,
 * `localStorage.setItem`, `map.put`, `headers.add`, PHP's `define` and `ini_set`, Android's
 * `buildConfigField("String", "API_KEY", "\"…\"")` (a type first, the value a Java string in a
 * string). The callee's name says it sets (`set…`, `put…`, `add…`, `append`, `define`); the value
 * is one run without blanks (a message has some), and one word alone is a label or a message
 * (`setError("password", "Invalid")`).
 */
/** A setter's name ending where its call's parenthesis opens (see `SETTER_CALL_RULE`). */
const SETTER_NAME_RE = /(?<![\w$])(?:[Ss]et\w{0,40}|[Pp]ut\w{0,20}|[Aa]dd\w{0,40}|append|define|ini_set|buildConfigField|resValue)[ \t]*$/;
const SETTER_KEY_ENDS = ["key", "keys", "token", "tokens", "secret", "secrets", "password", "passwd", "passphrase", "pass", "pwd", "auth"];
const SETTER_CALL_RULE: Rule = {
	kind: "secret",
	// The end of the name (a keyword's), its closing quote and the comma after it: the comma between any two strings was in
	// most JSON, and the rule cost 4% of all redaction's time on the corpus (measured).
	hints: SETTER_KEY_ENDS.flatMap((w) => [`${w}",`, `${w}',`, `${w}\\",`]),
	// From the call's parenthesis (or Groovy's blank after `buildConfigField`): the callee's name before it is read in `decide`
	// (the names first, as alternatives, cost a tenth of all redaction's time on the corpus).
	pattern: /(?:\(|(?:buildConfigField|resValue)[ \t]+)[ \t]*(?:(?<tq>\\?["'])[A-Za-z.]{1,40}\k<tq>[ \t]*,[ \t]*)?(?<q>\\?["'])(?<key>[A-Za-z_][\w.:-]{0,63})\k<q>[ \t]*,[ \t]*\\?["'](?:\\{1,2}["'])?(?<val>[^\s"'\\]{1,1024})(?=\\{0,2}["'])/g,
	decide: (m, text) => {
		const { key = "", val = "" } = m.groups ?? {};
		const kind = keyDescribesSecret(key.slice(key.lastIndexOf(":") + 1));
		if (kind === undefined || /^[A-Z]?[a-z]+$/.test(val) || isNotSecret(val, kind)) return undefined;
		if (text[m.index] === "(" && !SETTER_NAME_RE.test(text.slice(Math.max(0, m.index - 64), m.index))) return undefined;
		const start = m.index + m[0].length - val.length;
		return { start, end: start + val.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
	},
};

/**
 * A setter named after the secret it sets, given the value alone: `client.setApiKey("…")`,
 * SendGrid's `sgMail.setApiKey('…')`, a builder's `.withPassword("…")`, C#'s `SetToken("…")`,
 * `set_auth_token("…")`. The value one run without blanks, not one word alone (`setAuth("basic")`).
 */
const NAMED_SETTER_RULE: Rule = {
	kind: "secret",
	hints: SETTER_KEY_ENDS.flatMap((w) => [`${w}("`, `${w}('`, `${w}(\``, `${w}(\\"`]),
	pattern: /(?<![\w$])(?:[Ss]et|[Ww]ith|[Uu]se)(?:_|(?=[A-Z]))(?<key>[A-Za-z_]\w{0,60})[ \t]*\([ \t]*(?=\\?["'`])/g,
	decide: (m, text) => {
		const kind = keyDescribesSecret(m.groups?.key ?? "");
		return kind === undefined ? undefined : oneRunAt(text, m.index + m[0].length, kind);
	},
};

/**
 * The default a program falls back on when a variable naming a secret is not set, which is the
 * secret as often as a placeholder: `os.getenv("API_KEY", "…")`, `os.environ.get("API_KEY",
 * default="…")`, Ruby's `ENV.fetch("API_TOKEN", "…")`, a Go helper's `getEnv("JWT_SECRET", "…")`.
 * The callee's name says it reads (`…get`, `…env`, `…fetch`); the value one run without blanks.
 */
const DEFAULT_CALL_NAME_RE = /(?:get|Get|GET|env|Env|ENV|fetch|Fetch|getenv|Getenv|GetEnvironmentVariable|config|Config|setting|Setting)[ \t]*$/;
const ENV_DEFAULT_CALL_RULE: Rule = {
	kind: "secret",
	// As `SETTER_CALL_RULE`'s: the end of the name, its closing quote and the comma after it.
	hints: SETTER_KEY_ENDS.flatMap((w) => [`${w}",`, `${w}',`, `${w}\\",`]),
	pattern: /\([ \t]*(?<q>\\?["'])(?<key>[A-Za-z_][\w.-]{0,63})\k<q>[ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?(?=\\?["'`])/g,
	decide: (m, text) => {
		if (!DEFAULT_CALL_NAME_RE.test(text.slice(Math.max(0, m.index - 48), m.index))) return undefined;
		const kind = keyDescribesSecret(m.groups?.key ?? "");
		return kind === undefined ? undefined : oneRunAt(text, m.index + m[0].length, kind);
	},
};

/**
 * The same default after an operator: `process.env.STRIPE_SECRET || "…"`, `import.meta.env.VITE_API_KEY
 * ?? "…"`, `os.environ["API_KEY"] or "…"`, `ENV["API_TOKEN"] || "…"`.
 */
const ENV_FALLBACK_RULE: Rule = {
	kind: "secret",
	hints: ["env.", "env[", "environ["],
	pattern: /(?<![\w$])(?:process\.env|import\.meta\.env|os\.environ|ENV|env|Env)(?:\.(?<key>[A-Za-z_]\w{0,63})|\[[ \t]*(?<q>\\?["'])(?<qkey>[A-Za-z_][\w.-]{0,63})\k<q>[ \t]*\])[ \t]*(?:\?\?|\|\||or(?![\w$]))[ \t]*(?=\\?["'`])/g,
	decide: (m, text) => {
		const kind = keyDescribesSecret(m.groups?.key ?? m.groups?.qkey ?? "");
		return kind === undefined ? undefined : oneRunAt(text, m.index + m[0].length, kind);
	},
};

/**
 * A shell's default for an unset variable naming a secret: `${DB_PASSWORD:-…}`, `${API_TOKEN:=…}`
 * (in a script, a Compose file, a Dockerfile). Before, `password: ${DB_PASSWORD:-…}` kept the
 * value: a value that starts with `$` is a reference.
 */
const SHELL_DEFAULT_RULE: Rule = {
	kind: "secret",
	hints: SETTER_KEY_ENDS.flatMap((w) => [`${w}:-`, `${w}:=`]),
	pattern: /\$\{(?<key>[A-Za-z_]\w{0,63}):[-=](?<val>[^\s{}"'`$\\]{1,256})\}/g,
	decide: (m) => {
		const { key = "", val = "" } = m.groups ?? {};
		const kind = keyDescribesSecret(key);
		// One word alone is a placeholder (`${DB_PASSWORD:-default}`), as a setter's is.
		if (kind === undefined || /^[A-Z]?[a-z]+$/.test(val) || isNotSecret(val, kind)) return undefined;
		const start = m.index + m[0].length - 1 - val.length;
		return { start, end: start + val.length, replacement: redactionMarker(markerKind(kind)), kind: markerKind(kind) };
	},
};

/**
 * Go's declaration with its type after the name: `var apiKey string = "…"`, `const dbPassword
 * string = "…"`, and a line of a `var ( … )` block (`apiToken string = "…"`).
 */
const GO_DECLARATION_RULE: Rule = {
	kind: "secret",
	hints: ["string =", "string="],
	pattern: /(?<![\w$.])(?<key>[A-Za-z_]\w{0,63})[ \t]+string[ \t]*=(?!=)[ \t]*(?=["'`])/g,
	decide: (m, text) => {
		const kind = keyDescribesSecret(m.groups?.key ?? "");
		return kind === undefined ? undefined : literalAt(text, m.index + m[0].length, kind);
	},
};

/** A quoted value at `at` given alone (a call's argument), as a secret's: one run without blanks, not one word alone. */
function oneRunAt(text: string, at: number, kind: KeyKind): (Edit & { kind: string }) | undefined {
	const edit = literalAt(text, at, kind);
	if (edit === undefined) return undefined;
	const value = text.slice(edit.start, edit.end);
	return /\s/.test(value) || /^[A-Z]?[a-z]+$/.test(value) ? undefined : edit;
}

/** One argument of a command line: its text without its quotes, and where that text is. */
interface CommandArg {
	value: string;
	start: number;
	end: number;
}

/** What ends a command's arguments: a line's end, a separator, a redirection, a closing backtick or parenthesis. */
const ARGS_END = new Set(["\n", "\r", ";", "|", "&", "<", ">", "`", ")"]);
/** What ends an unquoted argument. */
const ARG_END = new Set([...ARGS_END, " ", "\t", '"', "'", "\\"]);
const MAX_ARG = 256;

/**
 * A `\` inside a word that a Windows command keeps (`CORP\admin`, `host\SQLEXPRESS`, doubled in a
 * JSON string's text): a letter, digit or `_$.-` on each side. Not one before `n`, `r`, `t` or `u`
 * (in a JSON string's text that is an escape: `value\nnext` is two lines), nor at a line's end (a
 * continuation): those end the word.
 */
function inWordBackslash(text: string, at: number): boolean {
	if (text[at] !== "\\") return false;
	// Doubled, as a JSON string writes one (`CORP\\admin`): either of the two.
	if (text[at + 1] === "\\") return WORD_CHAR.test(text[at - 1] ?? "") && WORD_CHAR.test(text[at + 2] ?? "");
	if (text[at - 1] === "\\") return WORD_CHAR.test(text[at - 2] ?? "") && WORD_CHAR.test(text[at + 1] ?? "");
	return WORD_CHAR.test(text[at - 1] ?? "") && WORD_CHAR.test(text[at + 1] ?? "") && !/[nrtu]/.test(text[at + 1]!);
}
const WORD_CHAR = /^[A-Za-z0-9_$.-]$/;

/** Up to `max` arguments of the command line at `from` (one longer than `MAX_ARG` ends the list). */
function commandArgs(text: string, from: number, max: number): CommandArg[] {
	const args: CommandArg[] = [];
	let i = from;
	while (args.length < max) {
		while (text[i] === " " || text[i] === "\t") i++;
		const c = text[i];
		if (c === "\\" && text[i + 1] === '"') {
			// A JSON-escaped quoted argument (a command inside a JSON string): `\"…\"`.
			let close = i + 2;
			while (close < text.length && close - i <= MAX_ARG && text[close] !== "\n" && text[close] !== "\r" && !(text[close] === "\\" && text[close + 1] === '"')) close++;
			if (text[close] !== "\\" || text[close + 1] !== '"') break;
			args.push({ value: text.slice(i + 2, close), start: i + 2, end: close });
			i = close + 2;
			continue;
		}
		if (c === undefined || ARGS_END.has(c) || c === "\\") break;
		let j = i + 1;
		if (c === '"' || c === "'") {
			while (j < text.length && j - i <= MAX_ARG && text[j] !== c && text[j] !== "\n" && text[j] !== "\r") j++;
			if (text[j] !== c) break;
			args.push({ value: text.slice(i + 1, j), start: i + 1, end: j });
			i = j + 1;
			continue;
		}
		while (j < text.length && j - i <= MAX_ARG && (!ARG_END.has(text[j]!) || inWordBackslash(text, j))) j++;
		if (j - i > MAX_ARG) break;
		args.push({ value: text.slice(i, j), start: i, end: j });
		i = j;
	}
	return args;
}

/** What follows a `\` in a switch's value (`/user:CORP\admin`): up to a blank, a quote or what ends the arguments. */
const SWITCH_REST_RE = /[^\s"'`;|&<>()]{1,256}/y;
/** A UNC path, `\\HOST\SHARE` (its backslashes doubled in a JSON string): up to a blank, a quote or what ends the arguments. */
const UNC_ARG_RE = /(?:\\\\){1,2}[A-Za-z0-9_.$-][^\s"'`;|&<>()]{0,255}/y;

/**
 * The password of `net use`: the first word after the share that is no switch (`/user:NAME`,
 * `/persistent:yes`, `/savecred`) nor the name a `/user:` with a blank after it takes; `*` asks, and
 * without a share (`net use Z: /delete`) there is none. A share's `\` ends an argument for
 * `commandArgs` (a line end's escape, `\n`, would start one), so shares are read here.
 */
function netUsePassword(text: string, from: number): (Edit & { kind: string }) | undefined {
	const args: (CommandArg & { unc?: true })[] = [];
	let i = from;
	while (args.length < 12) {
		while (text[i] === " " || text[i] === "\t") i++;
		UNC_ARG_RE.lastIndex = i;
		const unc = UNC_ARG_RE.exec(text);
		if (unc !== null) {
			args.push({ value: unc[0], start: i, end: i + unc[0].length, unc: true });
			i += unc[0].length;
			continue;
		}
		const [arg] = commandArgs(text, i, 1);
		const last = args[args.length - 1];
		if (arg === undefined && last !== undefined && last.end === i && last.value.startsWith("/") && text[i] === "\\" && text[i + 1] !== '"') {
			// A switch's domain user, `/user:CORP\admin`: its `\` is no argument's end.
			SWITCH_REST_RE.lastIndex = i;
			i += SWITCH_REST_RE.exec(text)?.[0].length ?? 0;
			last.end = i;
			last.value = text.slice(last.start, i);
			continue;
		}
		if (arg === undefined) break;
		args.push(arg);
		// Past the closing quote, if any.
		i = text[arg.end] === '"' || text[arg.end] === "'" ? arg.end + 1 : text.startsWith('\\"', arg.end) ? arg.end + 2 : arg.end;
	}
	const share = args.findIndex((a) => a.unc);
	if (share < 0) return undefined;
	const words = args.slice(share + 1).filter((a, k, all) => !a.value.startsWith("/") && !(k > 0 && /^\/user:$/i.test(all[k - 1]!.value)));
	const [password, next] = words;
	if (password === undefined || password.value === "*" || (plainWord(password) && plainWord(next)) || isNotSecret(password.value, "password")) return undefined;
	return { start: password.start, end: password.end, replacement: redactionMarker("password"), kind: "password" };
}

/**
 * The password `htpasswd -b` takes on its command line: after the file and the user (`-b`), after
 * the user alone (`-nb`, no file). Flags may be glued (`-bc`, `-nbB`); `-C` and `-r` take a number.
 * Not with `-i` (read from stdin) or `-D` (delete). Three plain lower-case words where the file,
 * user and password would be are prose ("htpasswd -b takes the password on the command line").
 */
function htpasswdPassword(text: string, from: number): (Edit & { kind: string }) | Skip | undefined {
	const args = commandArgs(text, from, 10);
	let flags = "";
	let i = 0;
	for (; i < args.length && /^-[A-Za-z0-9]{1,8}$/.test(args[i]!.value); i++) {
		flags += args[i]!.value.slice(1);
		if (/[Cr]$/.test(args[i]!.value) && /^\d{1,3}$/.test(args[i + 1]?.value ?? "")) i++;
	}
	if (!flags.includes("b") || /[iD]/.test(flags)) return undefined;
	const at = i + (flags.includes("n") ? 1 : 2);
	const password = args[at];
	// What follows may be the next command (a line's end written `\n`), or a marker of a rule before.
	if (password === undefined || password.value.startsWith("-") || args.slice(i, at + 1).some((a) => a.value.includes(REDACTION_MARKER))) return undefined;
	if (args.slice(i, at + 1).every((a) => /^[a-z]{1,20}$/.test(a.value))) return undefined;
	if (isNotSecret(password.value, "password")) return { skipTo: password.end };
	return { start: password.start, end: password.end, replacement: redactionMarker("password"), kind: "password" };
}

/** An argument that is a secret: where its text is, and its kind. */
interface ArgSecret {
	start: number;
	end: number;
	kind: string;
}

const argSecret = (arg: CommandArg | undefined, kind = "password", skip = 0): ArgSecret[] => (arg === undefined ? [] : [{ start: arg.start + skip, end: arg.end, kind }]);
/** A plain lower-case word: two of them where a value and the next argument would be are prose ("zip -P takes a password"). */
const plainWord = (arg: CommandArg | undefined): boolean => arg !== undefined && /^[a-z]{1,20}$/.test(arg.value);
const isOption = (arg: CommandArg | undefined): boolean => arg !== undefined && arg.value.startsWith("-");

/** `openssl passwd [-1|-6|-salt S …] PASSWORD…`: the arguments that are no option nor an option's value (none with `-stdin` or `-in`). */
function opensslPasswd(args: CommandArg[]): ArgSecret[] {
	const words: CommandArg[] = [];
	for (let i = 0; i < args.length; i++) {
		const a = args[i]!.value;
		if (a === "-stdin" || a === "-in") return [];
		if (a === "-salt") i++;
		else if (!a.startsWith("-")) words.push(args[i]!);
	}
	return words.length > 1 && words.every((w) => plainWord(w)) ? [] : words.flatMap((w) => argSecret(w));
}

/**
 * Where each command keeps a password (or a key) among its arguments; `text` for what stands
 * between two arguments (7z's `-p"…"` is the switch and a quoted argument glued to it).
 */
const COMMAND_SECRETS: Readonly<Record<string, (args: CommandArg[], text: string) => ArgSecret[]>> = dict({
	// `rabbitmqctl [-n NODE] add_user|change_password|authenticate_user NAME PASSWORD` (no PASSWORD: it asks).
	rabbitmqctl: (args) => {
		let i = 0;
		for (; isOption(args[i]); i++) if (/^(?:-[nt]|--node|--timeout|--formatter)$/.test(args[i]!.value)) i++;
		if (!/^(?:add_user|change_password|authenticate_user)$/.test(args[i]?.value ?? "")) return [];
		for (i++; isOption(args[i]); i++);
		return plainWord(args[i]) && plainWord(args[i + 1]) ? [] : argSecret(args[i + 1]);
	},
	// `zip -P PASSWORD`, also after other flags in one group (`zip -rP …`, `unzip -oP …`); `--password` is an option's (`OPTION_RULE`).
	zip: (args) => {
		const at = args.findIndex((a) => /^-[A-Za-z0-9]{0,8}P$/.test(a.value));
		if (at < 0 || isOption(args[at + 1]) || (plainWord(args[at + 1]) && plainWord(args[at + 2]))) return [];
		return argSecret(args[at + 1]);
	},
	// `7z a -pPASSWORD …`: the password glued to `-p` (`-p` alone asks), or a quoted one glued to it (`-p"…"`).
	"7z": (args, text) => {
		for (let i = 0; i < args.length; i++) {
			const a = args[i]!;
			if (!/^-[pP]/.test(a.value)) continue;
			if (a.value.length > 2) return argSecret(a, "password", 2);
			const next = args[i + 1];
			const glued = next !== undefined && ((next.start === a.end + 1 && (text[a.end] === '"' || text[a.end] === "'")) || (next.start === a.end + 2 && text.startsWith('\\"', a.end)));
			return glued ? argSecret(next) : [];
		}
		return [];
	},
	// `openssl enc -k PASSWORD` and `-K KEY` (the key itself, in hex); `-kfile` names a file. (`-pass pass:…` is an option's.)
	openssl: (args) => {
		if (args[0]?.value === "passwd") return opensslPasswd(args.slice(1));
		return args.flatMap((a, i) => (a.value === "-k" || a.value === "-K") && !isOption(args[i + 1]) ? argSecret(args[i + 1], a.value === "-k" ? "password" : "secret") : []);
	},
	// `vault login TOKEN`; with `-method` the arguments are `key=value` (an assignment's).
	vault: (args) => {
		if (args[0]?.value !== "login" || args.some((a) => /^--?method(?:=|$)/.test(a.value))) return [];
		const token = args.slice(1).find((a) => !isOption(a));
		return token === undefined || token.value.includes("=") ? [] : argSecret(token, "secret");
	},
	// `ssh-keygen -N NEW -P OLD` (also glued, `-Nsecret`); `-N ''` is no passphrase.
	"ssh-keygen": (args) =>
		args.flatMap((a, i) => {
			if (a.value === "-N" || a.value === "-P") return isOption(args[i + 1]) ? [] : argSecret(args[i + 1]);
			return /^-[NP]./.test(a.value) ? argSecret(a, "password", 2) : [];
		}),
	// Oracle's `sqlplus USER/PASSWORD@DB` (`/ as sysdba`, `/nolog`: none), and Data Pump's `expdp`, `impdp`.
	sqlplus: (args) => {
		const login = args.find((a) => !isOption(a));
		const split = login === undefined ? null : /^[^/@\s]{1,128}\/(?=[^/@\s])/.exec(login.value);
		if (login === undefined || split === null) return [];
		const rest = login.value.slice(split[0].length);
		const at = rest.search(/[@\s]/);
		const start = login.start + split[0].length;
		return [{ start, end: at < 0 ? login.end : start + at, kind: "password" }];
	},
	// `mysqladmin … password NEW` sets a new password.
	mysqladmin: (args) => {
		const at = args.findIndex((a) => a.value === "password");
		if (at < 0 || isOption(args[at + 1]) || (plainWord(args[at + 1]) && plainWord(args[at + 2]))) return [];
		return argSecret(args[at + 1]);
	},
	// Windows' `net user NAME PASSWORD [/add]` (`*` asks); its switches start with `/` (`/add`, `/domain`, `/comment:"…"`).
	net: (args) => {
		if (!/^user$/i.test(args[0]?.value ?? "")) return [];
		const words = args.slice(1).filter((a, i, all) => !a.value.startsWith("/") && !(i > 0 && all[i - 1]!.value.endsWith(":") && a.start <= all[i - 1]!.end + 2));
		const [name, password] = words;
		return password === undefined || password.value === "*" || (plainWord(name) && plainWord(password)) ? [] : argSecret(password);
	},
	// `useradd -p HASH`, `usermod -p HASH` (`--password`): the password's crypt(3) hash (see `CRYPT_HASH_RE`), or a password given as one.
	useradd: (args) => {
		const at = args.findIndex((a) => a.value === "-p" || a.value === "--password");
		return at < 0 || isOption(args[at + 1]) || (plainWord(args[at + 1]) && plainWord(args[at + 2])) ? [] : argSecret(args[at + 1]);
	},
	// `rclone config create|update|password NAME [TYPE] key value …`: a value after a key that names a secret (`secret_access_key`, `pass`, `client_secret`, a bare `key`: B2's and Azure's); `rclone obscure PASSWORD`.
	rclone: (args) => {
		const words = args.filter((a) => !isOption(a));
		if (words[0]?.value === "obscure") return words[1]?.value === "-" ? [] : argSecret(words[1]);
		const sub = words[0]?.value === "config" ? words[1]?.value : undefined;
		if (sub !== "create" && sub !== "update" && sub !== "password") return [];
		const pairs = words.slice(sub === "create" ? 4 : 3);
		const secrets: ArgSecret[] = [];
		for (let i = 0; i + 1 < pairs.length; i += 2) {
			const key = pairs[i]!.value;
			const kind = key === "key" || key === "pass" ? (key === "pass" ? "password" : "secret") : keyDescribesSecret(key);
			if (kind !== undefined && !key.includes("=")) secrets.push(...argSecret(pairs[i + 1], kind));
		}
		return secrets;
	},
	// MinIO's client: `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (`mc config host add …` before it), the URL a URL or a reference.
	mc: (args) => {
		const words = args.filter((a, i) => !isOption(a) && !/^--?(?:api|path|lookup|config-dir|C)$/.test(args[i - 1]?.value ?? ""));
		const first = words[0]?.value === "alias" && words[1]?.value === "set" ? 2 : words[0]?.value === "config" && words[1]?.value === "host" && words[2]?.value === "add" ? 3 : -1;
		if (first < 0 || !/^(?:https?:\/\/|\$)/.test(words[first + 1]?.value ?? "")) return [];
		return argSecret(words[first + 3], "secret");
	},
	// PuTTY's tools on Windows: `plink -pw PASSWORD`, `pscp -pw …`, `psftp -pw …`, `putty -pw …`.
	plink: (args) => {
		const at = args.findIndex((a) => a.value === "-pw");
		return at < 0 || isOption(args[at + 1]) ? [] : argSecret(args[at + 1]);
	},
	// NetworkManager: `nmcli device wifi connect SSID password PW`, a connection's `wifi-sec.psk PW`, `802-1x.password PW`.
	// `az keyvault secret set … --value X` (`--file`, `--encoding` read it from elsewhere).
	az: (args) => (args[1]?.value === "secret" && args[2]?.value === "set" ? optionValue(args, "--value", "secret") : []),
	// `aws secretsmanager create-secret|put-secret-value|update-secret … --secret-string X`; `aws ssm put-parameter … --value X` of a
	// `SecureString` or named after a secret (`--name /app/db_password`).
	aws: (args) => {
		if (args[0]?.value === "secretsmanager") return optionValue(args, "--secret-string", "secret");
		if (args[0]?.value !== "ssm" || args[1]?.value !== "put-parameter") return [];
		const name = optionArg(args, "--name")?.value ?? "";
		const secure = optionArg(args, "--type")?.value === "SecureString" || keyDescribesSecret(name.slice(name.lastIndexOf("/") + 1)) !== undefined;
		return secure ? optionValue(args, "--value", "secret") : [];
	},
	// PowerShell's `ConvertTo-SecureString "X" -AsPlainText [-Force]` (`-String X`): a password in plain text.
	"convertto-securestring": (args) => {
		if (!args.some((a) => /^-AsPlainText$/i.test(a.value))) return [];
		return argSecret(optionArg(args, "-String") ?? args.find((a) => !isOption(a)));
	},
	// fish's `set -x NAME VALUE` (`-gx`, `-Ux`, `--export`); not with `-e` (erase), `-q` (query), `-n`, `-S`, `-l` alone (a list's names).
	set: (args) => {
		const flags = args.filter((a) => isOption(a)).map((a) => a.value);
		if (flags.length === 0 || flags.some((f) => /^-[a-zA-Z]*[eqnS]|^--(?:erase|query|names|show)$/.test(f))) return [];
		const words = args.filter((a) => !isOption(a));
		return namedValue(words[0], words[1]);
	},
	// Windows' `setx NAME VALUE [/M]` (`/s HOST /u USER /p PASSWORD` first: the password of the remote user); `/k` and `/f` read the value elsewhere.
	setx: (args) => {
		const remote = args.findIndex((a) => /^[/-]p$/i.test(a.value));
		const password = remote >= 0 && !args[remote + 1]?.value.startsWith("/") ? argSecret(args[remote + 1]) : [];
		if (args.some((a) => /^[/-][kf]$/i.test(a.value))) return password;
		const words = wordsAfterOptions(args, /^[/-][sup]$/i);
		return [...password, ...namedValue(words[0], words[1])];
	},
	// Windows' `schtasks`: `/rp PASSWORD` the task's user's, `/p PASSWORD` the remote user's (`*` or none: it asks).
	schtasks: (args) =>
		args.flatMap((a, i) => {
			const value = args[i + 1];
			return /^[/-]r?p$/i.test(a.value) && value !== undefined && !/^[/-]/.test(value.value) && value.value !== "*" ? argSecret(value) : [];
		}),
	// csh's `setenv NAME VALUE`, `launchctl setenv NAME VALUE`, Apache's `SetEnv NAME VALUE`.
	setenv: (args) => namedValue(args[0], args[1]),
	// A Dockerfile's `ENV NAME VALUE`.
	env: (args) => namedValue(args[0], args[1]),
	// `dotnet user-secrets set NAME VALUE` (`--project P`, `--id ID`, `-c CONFIGURATION` before or after).
	"user-secrets": (args) => {
		const words = wordsAfterOptions(args, /^(?:-p|--project|--id|-c|--configuration)$/);
		return words[0]?.value === "set" ? namedValue(words[1], words[2]) : [];
	},
	// `git config [--global] NAME VALUE` (`git config set NAME VALUE`); not with `--get`, `--unset`, `--list` and the like.
	git: (args) => {
		if (args[0]?.value !== "config" || args.some((a) => /^--?(?:get|get-all|get-regexp|unset|unset-all|list|l|remove-section|rename-section|edit|e)$/.test(a.value))) return [];
		const words = wordsAfterOptions(args.slice(1), /^(?:-f|--file|--blob|--type|--default|--comment)$/);
		return words[0]?.value === "set" ? namedValue(words[1], words[2]) : namedValue(words[0], words[1]);
	},
	nmcli: (args) =>
		args.flatMap((a, i) => {
			const named = (a.value === "password" && args.slice(0, i).some((b) => b.value === "connect")) || /^[\w-]{1,40}\.(?:psk|password|wep-key[0-3]|leap-password|private-key-password)$/.test(a.value);
			return named && !isOption(args[i + 1]) && !(plainWord(args[i + 1]) && plainWord(args[i + 2])) ? argSecret(args[i + 1]) : [];
		}),
});
/** The argument after an option (`--value X`; any case, as PowerShell reads `-string`), unless it is an option. */
function optionArg(args: CommandArg[], option: string): CommandArg | undefined {
	const at = args.findIndex((a) => a.value.toLowerCase() === option.toLowerCase());
	return at < 0 || isOption(args[at + 1]) ? undefined : args[at + 1];
}

/** The value of `option` as a secret of `kind`. */
const optionValue = (args: CommandArg[], option: string, kind: string): ArgSecret[] => argSecret(optionArg(args, option), kind);

/** What may stand before an instruction on a Dockerfile's line: blanks, a file viewer's line number (`  12→`). */
const DOCKERFILE_LINE_RE = /^[ \t]*(?:\d{1,7}(?:\t|→)[ \t]*)?$/;

/**
 * The value a command gives a variable, its name then its value after a blank (`set -x API_KEY
 * …`, `setx API_KEY …`): a secret's when the name names one (its last part after a `:`, a .NET
 * configuration's section: `Stripe:SecretKey`), as for `KEY=value`. A name with `=` in it is an
 * assignment's; two plain words are prose.
 */
function namedValue(name: CommandArg | undefined, value: CommandArg | undefined): ArgSecret[] {
	// A value in parentheses is a command's output (fish's `(cat ~/.token)`).
	if (name === undefined || value === undefined || name.value.includes("=") || isOption(value) || value.value.startsWith("(") || (plainWord(value) && plainWord(name))) return [];
	const kind = keyDescribesSecret(name.value.slice(name.value.lastIndexOf(":") + 1));
	return kind === undefined ? [] : argSecret(value, kind);
}

/** The arguments that are no option (`-x`, `--global`) nor an option's value (`--file F` when `takesValue` says so). */
function wordsAfterOptions(args: CommandArg[], takesValue: RegExp): CommandArg[] {
	const words: CommandArg[] = [];
	for (let i = 0; i < args.length; i++) {
		if (!isOption(args[i]) && !args[i]!.value.startsWith("/")) words.push(args[i]!);
		else if (takesValue.test(args[i]!.value)) i++;
	}
	return words;
}

/** Commands whose secret is among their first ten arguments (a variable's name and value after a few options): no more are read, as a run of them would read 24 each. */
const FEW_ARGS = new Set(["set", "setx", "setenv", "env", "user-secrets", "git"]);

const COMMAND_ALIASES: Readonly<Record<string, string>> = dict({ unzip: "zip", zipcloak: "zip", "7za": "7z", "7zr": "7z", "7zz": "7z", expdp: "sqlplus", impdp: "sqlplus", usermod: "useradd", mcli: "mc", pscp: "plink", psftp: "plink", putty: "plink" });

/** The secrets among the arguments of `command` at `from` (see `COMMAND_SECRETS`) as one edit; a value found harmless stays. */
function commandSecrets(text: string, command: string, from: number): (Edit & { kind: string }) | undefined {
	const find = COMMAND_SECRETS[COMMAND_ALIASES[command] ?? command];
	if (find === undefined) return undefined;
	const secrets = find(commandArgs(text, from, FEW_ARGS.has(command) ? 10 : 24), text).filter((s) => s.end > s.start && !isNotSecret(text.slice(s.start, s.end), s.kind));
	const first = secrets[0];
	if (first === undefined) return undefined;
	const parts: string[] = [];
	let last = first.start;
	for (const s of secrets) {
		parts.push(text.slice(last, s.start), redactionMarker(markerKind(s.kind)));
		last = s.end;
	}
	return { start: first.start, end: last, replacement: parts.join(""), kind: markerKind(first.kind), kinds: secrets.map((s) => markerKind(s.kind)) };
}

/**
 * The password of a URL's `user:` from what follows it: up to the last `@` before the path. Written
 * unescaped, a `/`, `?` or `#` in it comes before any `@`: then it runs to the first `@` (unless what
 * comes first is a port, `host:8080/@scope/pkg`). A clip may have cut it (`…` at the end, no `@`).
 */
function urlPassword(rest: string): string | undefined {
	const path = rest.search(/[/?#]/);
	const at = (path < 0 ? rest : rest.slice(0, path)).lastIndexOf("@");
	if (at >= 0) return at > 0 ? rest.slice(0, at) : undefined;
	const next = rest.indexOf("@");
	if (next > 0) return /^\d{1,5}(?:[/?#]|$)/.test(rest) ? undefined : rest.slice(0, next);
	return rest.endsWith("…") ? rest : undefined;
}

// KEY=value assignments -------------------------------------------------------------------------

/**
 * `KEY=value`, `export KEY=value`, `KEY: value`, `"KEY": "value"`, `key := "value"`, a hash's
 * `"key" => "value"` (PHP, Ruby, Perl; the value quoted: bare, `x => x.y` is a function), a
 * variable's sigil before the key (`$password = '…'`: PHP, Perl, PowerShell), a quoted key or a
 * Ruby symbol in a subscript (`app.config['SECRET_KEY'] = '…'`, `os.environ["API_KEY"] = …`,
 * `config[:api_key] = …`; a bare one, `cache[token] = user`, is a variable's): the key and
 * separator. The value is read by `ASSIGNMENT_VALUE_RE` only for keys that name a secret, so the
 * many harmless `x = y` in a text cost no more than their key.
 */
const ASSIGNMENT_RE = /(?<![A-Za-z0-9_.\\])(?<q>\\?["']|)(?<key>[A-Za-z_][A-Za-z0-9_.-]{0,63})\k<q>(?:\](?<=\[(?:\\?["'][^\]]{1,64}|:[A-Za-z_]\w{0,63})\]))?(?<sep>[ \t]*(?::=|=>|:(?![:/])|=(?![=>~]))[ \t]*)/g;
/**
 * A declaration's type after `:` and before `=` (TypeScript, Python, Rust, Kotlin, Swift): a name,
 * generic (`Optional[str]`, `Map<K, V>`), a reference (`&str`, `&'static str`), a union or an
 * optional (`string | undefined`, `String?`).
 */
const TYPE_ANNOTATION_RE = /&?(?:'[a-z]{1,16}[ \t]+)?[A-Za-z_][\w.]{0,40}(?:<[^<>=\r\n]{0,64}>|\[[\w[\], .|]{0,64}\])?\??(?:[ \t]*\|[ \t]*[A-Za-z_][\w.]{0,40}){0,3}[ \t]*=(?![=>~])[ \t]*/y;
/** The value after the separator: a quoted string (also JSON-escaped `\"…\"`) or a bare word. */
const ASSIGNMENT_VALUE_RE = /\\"[^"\\\r\n]{0,1024}\\"|"(?:[^"\\\r\n]|\\.){0,1024}"|'(?:[^'\\\r\n]|\\.){0,1024}'|`[^`\\\r\n]{0,1024}`|[^\s"'`,;&|<>(){}[\]\\]{1,1024}/y;

/** A quoted value a clip cut short: its opening quote, then the rest of the text up to the clip's `…`. */
const CUT_QUOTED_VALUE_RE = /(?:\\"|["'`])[^\r\n]{1,1024}…$/y;
/** The rest of a line (a YAML plain scalar, a `.env` value), up to a comment. */
const REST_OF_LINE_RE = /[^\r\n]{1,1024}/y;
/**
 * A `.env` value: everything up to a blank (`&`, `(`, `|` are the value's own there) or an escaped
 * line end (`\n` in a `.env` file inside a JSON string: the next line's key is no part of it, see
 * `redactEscaped`); not a `\` (`KEY=\` ending a line: the value is on the next, see `redactContinued`).
 */
const ENV_VALUE_RE = /[^\s"'`\\](?:[^\s\\]|\\[^\snr]){0,1023}/y;
/** A YAML block scalar's header (`|`, `>-`, `|2+`), the value on the lines after it. */
const BLOCK_HEADER_RE = /^[|>](?:[-+][1-9]?|[1-9][-+]?)?[ \t]*(?:#[^\r\n]*)?$/;
/** Nothing but blanks and a comment: the rest of a key's line whose value is on the lines below. */
const BLANK_OR_COMMENT_RE = /^[ \t]*(?:#[^\r\n]*)?$/;
/** The first line below a key that opens a mapping entry (`user: x`, `$ref:`), a list item or a comment: no value of the key's own. */
const NESTED_ENTRY_RE = /^(?:-(?:[ \t]|$)|#|[^\s:#]+[ \t]*:(?:[ \t]|$))/;
/** A YAML plain scalar of more words than this is prose after a label ("Token: the one from step 2 …"), not a value. */
const MAX_PLAIN_WORDS = 8;

/** Characters that may precede a structured `key: value` (YAML line start, JSON, header string). */
const STRUCTURED_BEFORE = new Set(["{", ",", "(", "[", '"', "'", "`"]);

/** True when the `key: value` at `index` starts a line (after spaces, `- ` or `export `) or follows `{ , ( [` or a quote. */
function structuredPosition(text: string, index: number): boolean {
	let i = index;
	const stop = Math.max(0, index - 64);
	while (i > stop && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
	if (i === 0) return true;
	const c = text[i - 1] ?? "";
	if (c === "{" && text[i - 2] === "$") return false; // ${VAR:-default}
	if (c === "\n" || c === "\r" || STRUCTURED_BEFORE.has(c)) return true;
	if (c === "-" && (i === 1 || /\s/.test(text[i - 2] ?? ""))) return structuredPosition(text, i - 1);
	if (text.slice(Math.max(0, i - 6), i) === "export") return structuredPosition(text, i - 6);
	return false;
}

/** True when the key at `index` starts a line (after blanks, `- ` or `export `): a YAML block mapping or a `.env` line. */
function atLineStart(text: string, index: number): boolean {
	let i = index;
	const stop = Math.max(0, index - 64);
	while (i > stop && (text[i - 1] === " " || text[i - 1] === "\t")) i--;
	if (i === 0 || text[i - 1] === "\n" || text[i - 1] === "\r") return true;
	if (text[i - 1] === "-" && (i === 1 || /\s/.test(text[i - 2] ?? ""))) return atLineStart(text, i - 1);
	if (text.slice(Math.max(0, i - 6), i) === "export") return atLineStart(text, i - 6);
	return false;
}

function lineEnd(text: string, from: number): number {
	for (let i = from; i < text.length; i++) if (text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d) return i;
	return text.length;
}

/** The step over a line ending at `at` (`\r\n`, `\n` or `\r`). */
function afterNewline(text: string, at: number): number {
	return text.startsWith("\r\n", at) ? at + 2 : at + 1;
}

/**
 * A YAML block scalar's value (`password: |` and the lines after it, each indented past the key):
 * its lines' first indentation and where they end; undefined when `header` is none or no line follows.
 */
function blockScalar(text: string, keyAt: number, headerEnd: number): { indent: string; end: number; value: string } | undefined {
	// A bounded look back (the key starts its line, after a few blanks): a `lastIndexOf("\r")` the text
	// lacks ran back to its start at each key, 112 s for 200,000 lines of `API_KEY=`.
	const start = lineStart(text, keyAt, 256);
	const column = start < 0 ? 256 : keyAt - start;
	let indent: string | undefined;
	let end = headerEnd;
	let at = headerEnd;
	// Bounded: a block of more lines than a secret has is cut here (the rest stays a block of its own).
	for (let lines = 0; at < text.length && lines < 200; lines++) {
		const start = afterNewline(text, at);
		const stop = lineEnd(text, start);
		const line = text.slice(start, stop);
		at = stop;
		if (line.trim() === "") continue;
		const lead = line.length - line.trimStart().length;
		if (lead <= column) break;
		indent ??= line.slice(0, lead);
		end = stop;
	}
	return indent === undefined ? undefined : { indent, end, value: text.slice(headerEnd, end).trim() };
}

/** A YAML plain scalar on the rest of the line (a comment after ` #` left out), when it reads as a value, not prose. */
function plainScalar(text: string, valueStart: number): string | undefined {
	REST_OF_LINE_RE.lastIndex = valueStart;
	const rest = REST_OF_LINE_RE.exec(text)?.[0];
	if (rest === undefined || /^[{[&*!|>]/.test(rest)) return undefined;
	const comment = rest.search(/[ \t]#/);
	const value = (comment < 0 ? rest : rest.slice(0, comment)).trimEnd();
	// One word is what the bare value reads already; code is not YAML (`password: string | undefined`, `token: z.string().min(8)`).
	if (!/[ \t]/.test(value) || /[()|=<>{};,]/.test(value)) return undefined;
	return value.split(/[ \t]+/).length <= MAX_PLAIN_WORDS ? value : undefined;
}

/**
 * Where a quoted value starts on the line below its key, when the key's line ends after the
 * separator (`valueStart` is that line's end): `"client_secret":` then `"…"` (JSON a formatter
 * broke there), `const apiKey =` then `"…"` (Prettier breaks a long string there), a quoted YAML
 * value indented below its key (a YAML key's only: at a line's start, the value indented past
 * it). -1 when not.
 */
function quotedBelow(text: string, keyAt: number, valueStart: number, keyQuoted: boolean, sep: string): number {
	const c = text.charCodeAt(valueStart);
	if (c !== 0x0a && c !== 0x0d) return -1;
	const lineAt = afterNewline(text, valueStart);
	let at = lineAt;
	while (at - lineAt < 64 && (text[at] === " " || text[at] === "\t")) at++;
	const opening = text[at];
	if (opening !== '"' && opening !== "'" && opening !== "`") return -1;
	if (keyQuoted || sep.includes("=")) return at;
	return atLineStart(text, keyAt) && at - lineAt > keyAt - lineStart(text, keyAt, 256) ? at : -1;
}

/**
 * A quoted value that runs over lines, its quotes and all: YAML's quoted scalars fold their
 * lines, a shell's string holds its line ends. It starts on its key's line (a quote that ends
 * that line opens no value: `"password: " +` and code below), holds no more than a few words
 * (`MAX_PLAIN_WORDS`: prose in quotes is not a secret) on a few lines, none of them the next
 * key's (`user: …`), and what follows its closing quote ends a value.
 */
const QUOTED_LINES_RE = /"(?=[ \t]*[^\s"])(?:[^"\\]|\\[^]){1,1024}"(?=[ \t]*(?:[,;})\]#\r\n]|$))|'(?=[ \t]*[^\s'])[^']{1,1024}'(?=[ \t]*(?:[,;})\]#\r\n]|$))|`(?=[ \t]*[^\s`])[^`\\]{1,1024}`(?=[ \t]*(?:[,;})\]#\r\n]|$))/y;
/** A line that opens a mapping entry or an assignment: the next key, not a value's line. */
const KEY_LINE_RE = /^[ \t]*(?:- )?["']?[A-Za-z_][\w.-]*["']?[ \t]*(?::|=)(?:[ \t]|$)/;
const MAX_QUOTED_LINES = 16;

function quotedOverLines(text: string, at: number): string | undefined {
	QUOTED_LINES_RE.lastIndex = at;
	const value = QUOTED_LINES_RE.exec(text)?.[0];
	return value !== undefined && valueLines(value.slice(1, -1), 2) ? value : undefined;
}

/** Whether the text between a value's quotes reads as one over lines (at least `least` of them): a few lines of a few words, none the next key's. */
function valueLines(inner: string, least: number): boolean {
	const lines = inner.split(/\r\n|\r|\n/);
	if (lines.length < least || lines.length > MAX_QUOTED_LINES || lines.slice(1).some((line) => KEY_LINE_RE.test(line))) return false;
	return inner.trim().split(/\s+/).length <= MAX_PLAIN_WORDS;
}

/**
 * TOML's and Python's triple-quoted strings (`"""…"""`, `'''…'''`), on one line or over lines (as
 * a quoted value over lines, see `valueLines`); a quote in one is its own unless three close it.
 */
const TRIPLE_QUOTED_RE = /"""(?:[^"\\]|\\[^]|"(?!"")){0,1024}"""|'''(?:[^']|'(?!'')){0,1024}'''/y;

/** The first word of the line after a key whose line ends at its separator, up to a blank or a quote. */
const NEXT_LINE_WORD_RE = /[ \t]{0,64}([^\s"'`]{16,200})(?![^\s"'`])/y;

/** What a call or an index follows: a name or a property chain (`getpass(`, `os.environ[`). */
const IDENTIFIER_CHAIN_OR_NAME_RE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
/** A string literal's prefix in Python and others: `f"…"`, `rb'…'`. */
const STRING_PREFIX_RE = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/;

const ASSIGNMENT_RULE: Rule = {
	kind: "password",
	hints: ["pass", "pwd", "secret", "token", "key", "auth"],
	// A key naming a secret, then a separator: without one, no key=value in the text can qualify.
	gate: /(?:pass|pwd|secret|token|key|auth)[A-Za-z0-9_.-]{0,63}\\?["']?\]?[ \t]*(?::|=)/i,
	pattern: ASSIGNMENT_RE,
	decide: (m, text) => {
		const { q = "", key = "", sep = "" } = m.groups ?? {};
		const sigil = text[m.index - 1] === "$";
		// After a sigil the shell's names are case-blind (PowerShell's `$pwd`); after a `;`, in a connection string, `PWD` is ODBC's password.
		const shellName = SHELL_VARIABLES.has(key.toUpperCase());
		const judged = shellName && text[m.index - 1] === ";" ? "password" : sigil && shellName ? undefined : keyDescribesSecret(key);
		if (judged === undefined) return undefined;
		// `judged` decides what is a secret, `kind` is what its marker shows.
		const kind = markerKind(judged);
		if (text[m.index + m[0].length] === "{") {
			// An object: the value its first field `value` holds (`apiKey={"value": "…"}`), if any.
			OBJECT_VALUE_RE.lastIndex = m.index + m[0].length;
			const field = OBJECT_VALUE_RE.exec(text);
			return field === null ? undefined : literalAt(text, OBJECT_VALUE_RE.lastIndex, judged);
		}
		// A type between the key and its value (`apiKey: string = "…"`, `API_KEY: &str = "…"`, `api_key: str = "…"`): the value after its `=`.
		TYPE_ANNOTATION_RE.lastIndex = m.index + m[0].length;
		const typed = sep.trim() === ":" ? (TYPE_ANNOTATION_RE.exec(text)?.[0].length ?? 0) : 0;
		// A key that ends its line may have its quoted value on the next: the value starts there.
		const below = typed > 0 ? -1 : quotedBelow(text, m.index, m.index + m[0].length, q !== "", sep);
		const valueStart = below < 0 ? m.index + m[0].length + typed : below;
		// The key, the separator and the line end before a value below: what stays before the marker.
		const head = text.slice(m.index, valueStart);
		const opening = text[valueStart] ?? "";
		const quoted = opening === '"' || opening === "'" || opening === "`" || (opening === "\\" && text[valueStart + 1] === '"');
		// `key: value` in prose ("Your password: keep it safe") is not an assignment, nor `token => token.trim()` (a function).
		if (sep.trim() === ":" && q === "" && !quoted && !structuredPosition(text, m.index)) return undefined;
		// After a sigil a bare value is no literal (`$password = Read-Host`, `$token = SOME_CONSTANT`): a secret there is quoted.
		if ((sep.trim() === "=>" || sigil) && !quoted) return undefined;
		const ownLine = q === "" && !quoted && atLineStart(text, m.index);
		if (ownLine && sep.trim() === ":") {
			// YAML: `password: |` with the value on the lines after it, or a value of several words.
			const headerEnd = lineEnd(text, valueStart);
			const block = BLOCK_HEADER_RE.test(text.slice(valueStart, headerEnd)) ? blockScalar(text, m.index, headerEnd) : undefined;
			if (block) {
				if (isNotSecret(block.value, judged)) return { skipTo: block.end };
				return { end: block.end, replacement: `${m[0]}${text.slice(valueStart, headerEnd)}\n${block.indent}${redactionMarker(kind)}`, kind };
			}
		}
		if (ownLine) {
			// The value on the lines after its key: `password:` or `aws_secret_access_key =` ends its line and
			// the value is indented below it (a YAML plain scalar a dumper folded past its width, an INI
			// continuation line). A mapping or a list under the key (`auth:` then `user: …`) is not a value, nor prose.
			const headerEnd = lineEnd(text, valueStart);
			const below = BLANK_OR_COMMENT_RE.test(text.slice(valueStart, headerEnd)) ? blockScalar(text, m.index, headerEnd) : undefined;
			if (below && !NESTED_ENTRY_RE.test(below.value) && below.value.split(/\s+/).length <= MAX_PLAIN_WORDS) {
				if (isNotSecret(below.value, judged)) return { skipTo: below.end };
				return { end: below.end, replacement: `${m[0]}${text.slice(valueStart, headerEnd)}\n${below.indent}${redactionMarker(kind)}`, kind };
			}
		}
		if (!quoted && sep.trim() !== "=>") {
			// A value a line break pushed to the next line's start (a prompt typed over two lines, a
			// terminal's wrap): `API_KEY=` then the value. Only a random-looking first word counts: a
			// `.env` key left empty has the next key below it.
			// Only blanks up to the line's end (a bounded look: a long line of keys is not scanned at each).
			let at = valueStart;
			while (at - valueStart < 64 && (text[at] === " " || text[at] === "\t")) at++;
			if (text[at] === "\n" || text[at] === "\r") {
				NEXT_LINE_WORD_RE.lastIndex = afterNewline(text, at);
				const word = NEXT_LINE_WORD_RE.exec(text);
				if (word?.[1] !== undefined && looksRandom(word[1]) && !isNotSecret(word[1], judged)) {
					const end = NEXT_LINE_WORD_RE.lastIndex;
					return { end, replacement: text.slice(m.index, end - word[1].length) + redactionMarker(kind), kind };
				}
			}
		}
		TRIPLE_QUOTED_RE.lastIndex = valueStart;
		const triple = quoted ? TRIPLE_QUOTED_RE.exec(text)?.[0] : undefined;
		if (triple !== undefined) {
			const end = valueStart + triple.length;
			const inner = triple.slice(3, -3);
			if ((/[\r\n]/.test(inner) && !valueLines(inner, 2)) || isNotSecret(inner.trim(), judged)) return { skipTo: end };
			return { end, replacement: head + triple.slice(0, 3) + redactionMarker(kind) + triple.slice(0, 3), kind };
		}
		ASSIGNMENT_VALUE_RE.lastIndex = valueStart;
		let val = ASSIGNMENT_VALUE_RE.exec(text)?.[0];
		if (ownLine && sep.trim() === ":") val = plainScalar(text, valueStart) ?? val;
		else if (ownLine && sep === "=" && /^[A-Z][A-Z0-9_]*$/.test(key)) {
			// A `.env` line: its value runs to a blank (`Tr0ub4dor&Jx3`, `(Bn5Xc2)`).
			ENV_VALUE_RE.lastIndex = valueStart;
			val = ENV_VALUE_RE.exec(text)?.[0] ?? val;
		}
		// A `$` that opens `${…}` after the value is not its own (`x${pass:…}`): taken, it made the `{` start a key of its own.
		if (val !== undefined && val.length > 1 && val.endsWith("$") && text[valueStart + val.length] === "{") val = val.slice(0, -1);
		if (val === undefined && quoted && opening !== "\\" && (q !== "" || sep.includes("=") || structuredPosition(text, m.index))) val = quotedOverLines(text, valueStart);
		if (val === undefined && quoted) {
			// A quoted value the clip cut (`"client_secret": "Kq8v…`): what is left of it may be a secret's start.
			CUT_QUOTED_VALUE_RE.lastIndex = valueStart;
			const cut = CUT_QUOTED_VALUE_RE.exec(text)?.[0];
			if (cut !== undefined) {
				const quote = cut.startsWith("\\") ? '\\"' : cut[0]!;
				if (isNotSecret(cut.slice(quote.length), judged)) return { skipTo: text.length };
				return { end: text.length, replacement: `${head}${quote}${redactionMarker(kind)}`, kind };
			}
		}
		if (val === undefined) return undefined;
		// A value found not to be a secret is not searched again for keys.
		const skip = { skipTo: valueStart + val.length };
		const after = text[valueStart + val.length] ?? "";
		const quote = /^(?:\\"|["'`])/.exec(val)?.[0] ?? "";
		const inner = quote === "" ? val : val.slice(quote.length, val.length - quote.length);
		// A bare value glued to a marker is what is left of a token a rule before took.
		if (quote === "" && text.startsWith(REDACTION_MARKER, valueStart + val.length)) return skip;
		if (quote === "") {
			// Code rather than a value: a call, an index, a string prefix (f"…"), or `x = y;`. A quote
			// after anything else closes a string the assignment is in (`-H "x-api-key: …"`, `'…?api_key=…'`).
			if ((after === "(" || after === "[") && IDENTIFIER_CHAIN_OR_NAME_RE.test(val)) return skip;
			if ((after === '"' || after === "'" || after === "`") && STRING_PREFIX_RE.test(val)) return skip;
			if (/\s/.test(sep) && sep.includes("=") && IDENTIFIER_RE.test(val) && (after === ";" || after === "," || after === ")")) return skip;
		} else if (inner.includes("${") || inner.includes("{{") || /^\{[A-Za-z_][\w.]*\}$/.test(inner)) {
			return skip;
		}
		if (isNotSecret(inner, judged)) return skip;
		return { end: valueStart + val.length, replacement: head + quote + redactionMarker(kind) + quote, kind };
	},
};

/** An object's opening and its first field, `value` (`{"value": `, `{ value = `, over lines too): where a value named by the key before it starts. */
const OBJECT_VALUE_RE = /\{\s{0,64}(?<q>\\?["']?)value\k<q>[ \t]*[:=][ \t]*/iy;

/**
 * The value at `at` (quoted, also JSON-escaped, or bare: see `ASSIGNMENT_VALUE_RE`) as a secret's,
 * its quotes kept, unless it is no secret (`isNotSecret`).
 */
function literalAt(text: string, at: number, judged: KeyKind): (Edit & { kind: string }) | undefined {
	ASSIGNMENT_VALUE_RE.lastIndex = at;
	const val = ASSIGNMENT_VALUE_RE.exec(text)?.[0];
	if (val === undefined) return undefined;
	const quote = /^(?:\\"|["'`])/.exec(val)?.[0] ?? "";
	const inner = quote === "" ? val : val.slice(quote.length, val.length - quote.length);
	if (isNotSecret(inner, judged) || inner.includes("${") || inner.includes("{{")) return undefined;
	const start = at + quote.length;
	return { start, end: start + inner.length, replacement: redactionMarker(markerKind(judged)), kind: markerKind(judged) };
}

/**
 * A value named by another field: a `name` or `key` field naming a secret, then a `value` field
 * (right after it, on its line or the next): a Kubernetes container's `env` (`- name: DB_PASSWORD`
 * then `value: …`), an ECS task's `{"name": "API_KEY", "value": "…"}`, a Postman environment's
 * `{"key": "apiKey", "value": "…"}`, Terraform's `set { name = "auth.password" value = "…" }`.
 */
const NAMED_FIELD_RULE: Rule = {
	kind: "secret",
	hints: ['value":', 'value\\":', "value:", "value =", "value=", "value':"],
	pattern: /(?<![\w$-])(?<nq>\\?["']?)(?:name|Name|NAME|key|Key|KEY)\k<nq>[ \t]*[:=][ \t]*(?<kq>\\?["']?)(?<key>[A-Za-z_][\w.:-]{0,63})\k<kq>[ \t]*[,;]?\s{0,64}(?:-[ \t]+)?(?<vq>\\?["']?)(?:value|Value|VALUE)\k<vq>[ \t]*[:=][ \t]*/g,
	decide: (m, text) => {
		const key = m.groups?.key ?? "";
		const judged = keyDescribesSecret(key.slice(key.lastIndexOf(":") + 1));
		return judged === undefined ? undefined : literalAt(text, m.index + m[0].length, judged);
	},
};

/**
 * A Terraform (HCL) variable named after a secret and its `default`: `variable "db_password" {`,
 * then `default = "…"` among its arguments (before any nested block).
 */
const TERRAFORM_VARIABLE_RULE: Rule = {
	kind: "secret",
	hints: ['variable "', 'variable \\"'],
	pattern: /(?<![\w-])variable[ \t]+\\?"(?<key>[A-Za-z_][\w-]{0,63})\\?"[ \t]*\{[^{}]{0,1024}?(?<![\w-])default[ \t]*=[ \t]*/g,
	decide: (m, text) => {
		const judged = keyDescribesSecret(m.groups?.key ?? "");
		return judged === undefined ? undefined : literalAt(text, m.index + m[0].length, judged);
	},
};

// Secrets named in prose ---------------------------------------------------------------------------

/**
 * A secret named in prose: `the key is 3q2+…==`, `Your API key is \`…\``, `my password was "…"`,
 * `The signing secret is: …`, `key: …` with no word before it, `the token  is …` (blanks as typed).
 * The words before the value are read as a key's name (`THE_KEY`, `API_KEY`, `CACHE_KEY`,
 * `PUSHER_APP_KEY`: see `keywordKind`; `key` alone a bare `KEY`), and the value, one run of base64
 * (either alphabet) or hex ending where a word ends, counts only when it looks random
 * (`looksRandom`) whatever the name: prose holds hashes, ids, names and paths after these words far
 * more often than secrets. Under a bare `KEY` (`the key is`, `saved with key:`), hex of a hash's
 * length (40: SHA-1 and git; 64: SHA-256), alone or ending a name, is taken for a hash. `=` is an assignment's, and
 * `key: value` where a config line is likely was the assignment rule's before this one runs.
 */
const PROSE_WORDS = ["key", "token", "secret", "password", "passphrase"];
const PROSE_SECRET_RULE: Rule = {
	kind: "secret",
	// The word and what follows it (one blank, as the pattern wants): the words alone are in most transcripts' large strings, and the rule cost a tenth of all redaction's time (measured).
	hints: PROSE_WORDS.flatMap((w) => [`${w} is`, `${w} was`, `${w}:`, `${w} :`, `${w}  `, `${w}\t`]),
	// After the value: no more of a token, nor a file's extension or a call (`a8f3.png`, `x(`); its closing quote, if any.
	pattern: /(?<![A-Za-z0-9])(?<word>key|token|secret|password|passphrase)(?:[ \t]{1,8}(?:is|was)(?:[ \t]*:)?|[ \t]{0,8}:)[ \t]*(?<q>[`"']?)(?<val>[A-Za-z0-9+/_-]{16,200}={0,2})(?=\k<q>)(?![A-Za-z0-9+/=_([-]|[.:][A-Za-z0-9])/gi,
	decide: (m, text) => {
		const { word = "", val = "" } = m.groups ?? {};
		const name = nameBefore(text, m.index);
		// `key` with no word before it (`key: …` opening a line or a text) is a bare `KEY`; not a property's (`obj.key:`, `$key:`).
		const bare = name === "" && word.toLowerCase() === "key" && !/[.$/\\]/.test(text[m.index - 1] ?? "");
		const judged = bare ? "key" : keyDescribesSecret(name + word);
		if (judged === undefined || !looksRandom(val) || isNotSecret(val, judged)) return undefined;
		// A known token a clip cut short (`ghp_Zq8…`) is left to `redactCutToken`, which names its kind.
		if (text[m.index + m[0].length] === "…" && CUT_RULES.some(({ cut }) => cut.start.test(val))) return undefined;
		// A hash, or a name ending in one (a cache's `Linux-node-<sha256>`).
		if (judged === "key" && /(?:^|[-_])(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(val)) return undefined;
		const start = m.index + m[0].length - val.length;
		return { start, end: start + val.length, replacement: redactionMarker(markerKind(judged)), kind: markerKind(judged) };
	},
};

/**
 * The words of a name before its keyword at `at`, ending in `_`: the identifier it ends
 * (`PUSHER_APP_` of `PUSHER_APP_KEY`, `api_` of `api-key`) or the one word a blank before it
 * (`the_`, `API_`, `cache_`); "" when neither.
 */
function nameBefore(text: string, at: number): string {
	const glue = text[at - 1];
	let i = at - 1;
	if (glue === "_" || glue === "-") {
		while (i > 0 && at - i < 64 && /[A-Za-z0-9_-]/.test(text[i - 1]!)) i--;
		return text.slice(i, at - 1).replace(/-/g, "_") + "_";
	}
	if (glue !== " " && glue !== "\t") return "";
	while (i > 0 && at - i < 32 && /[A-Za-z0-9]/.test(text[i - 1]!)) i--;
	return i < at - 1 && !/[\w-]/.test(text[i - 1] ?? "") ? `${text.slice(i, at - 1)}_` : "";
}

// Secrets in base64 -------------------------------------------------------------------------------

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Each ASCII character's value in base64 (standard and URL alphabets both), -1 for none. */
const BASE64_VALUE = Int8Array.from({ length: 128 }, (_, c) => {
	const i = BASE64_ALPHABET.indexOf(String.fromCharCode(c));
	return c === 0x2d ? 62 : c === 0x5f ? 63 : i;
});
const isBase64Code = (c: number): boolean => c < 128 && BASE64_VALUE[c]! >= 0;

/**
 * `text[from, to)` as base64 (either alphabet; padding, if any, ends it) decoded to text, one
 * character a byte; undefined when it is not text: a control byte (other than a tab or a line
 * end), or more than one byte in eight past ASCII (random bytes: an image, a signature).
 */
function decodeBase64Text(text: string, from: number, to: number): string | undefined {
	const chars: string[] = [];
	let bits = 0;
	let value = 0;
	let high = 0;
	for (let i = from; i < to; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x3d) break;
		const v = c < 128 ? BASE64_VALUE[c]! : -1;
		if (v < 0) return undefined;
		value = ((value << 6) | v) & 0xffff;
		bits += 6;
		if (bits < 8) continue;
		bits -= 8;
		const byte = (value >> bits) & 0xff;
		if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f) return undefined;
		if (byte >= 0x80 && ++high * 8 > to - from) return undefined;
		chars.push(String.fromCharCode(byte));
	}
	return chars.join("");
}

/** Base64 of an ASCII text (for the images of the keywords below). */
function encodeBase64(bytes: string): string {
	let out = "";
	for (let i = 0; i < bytes.length; i += 3) {
		const n = (bytes.charCodeAt(i) << 16) | ((bytes.charCodeAt(i + 1) || 0) << 8) | (bytes.charCodeAt(i + 2) || 0);
		out += BASE64_ALPHABET[(n >> 18) & 63]! + BASE64_ALPHABET[(n >> 12) & 63]!;
		out += i + 1 < bytes.length ? BASE64_ALPHABET[(n >> 6) & 63]! : "=";
		out += i + 2 < bytes.length ? BASE64_ALPHABET[n & 63]! : "=";
	}
	return out;
}

/**
 * The characters base64 always writes for `word`, at each of the three places in its groups of
 * three bytes a text can put it: what stays the same whatever bytes come before and after it
 * (`password` is `cGFzc3dvcm`, `Bhc3N3b3Jk` or `wYXNzd29yZ`).
 */
export function base64Images(word: string): string[] {
	const images: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encodings = ["\u0000", "\u00ff"].flatMap((b) => ["\u0000", "\u00ff"].map((a) => encodeBase64(b.repeat(offset) + word + a.repeat(3))));
		const first = encodings[0]!;
		let best = "";
		let run = "";
		for (let i = 0; i < first.length; i++) {
			run = encodings.every((e) => e[i] === first[i]) ? run + first[i] : "";
			if (run.length > best.length) best = run;
		}
		images.push(best);
	}
	return images;
}

/**
 * What base64 hides a secret in, as its encoding shows it: the start of a JSON object (`{"` is
 * `eyJ`, `{` and a line end `ewog`, `{ "` `eyAi`) or of a PEM block (`-----BEGIN`), and, anywhere
 * in it, the words that announce a secret and the `://` of a URL that may hold a password.
 */
const BASE64_STARTS = ["eyJ", "ewog", "eyAi", base64Images("-----BEGIN")[0]!];
const BASE64_WORDS = [...new Set(["password", "Password", "PASSWORD", "secret", "Secret", "SECRET", "token", "Token", "TOKEN", "api_key", "apiKey", "API_KEY"].flatMap(base64Images))];
/**
 * `://` and the first character of a host, a letter (`Oi8v`, then `ovL2`/`ovL3` and `6Ly9` where a
 * character of the host completes the group): `://` alone is three characters at two of its
 * places, which random base64 (a signature, an image) holds every few kilobytes.
 */
const BASE64_URL_IMAGES = ["Oi8v", "ovL2", "ovL3", "6Ly9"];
/** A base64 text longer than this is not decoded (its secret, if any, stays). */
const BASE64_MAX_RUN = 65_536;
const BASE64_MIN_RUN = 16;
/** Payloads inside payloads: how deep they are decoded. */
const BASE64_MAX_DEPTH = 2;
let base64Depth = 0;

/**
 * Base64 that decodes to text the rules would redact (a `.dockerconfigjson`, a service account's
 * key file, a Kubernetes secret's `DATABASE_URL`, a `.env` file, a PEM key) becomes one marker:
 * the rules judge what it says, so base64 of harmless text stays. Only base64 that shows one of
 * the encodings above is decoded.
 */
const BASE64_PAYLOAD_RULE: Rule = {
	kind: "base64-secret",
	hints: [...new Set([...BASE64_STARTS, ...BASE64_WORDS, ...BASE64_URL_IMAGES].map((h) => h.toLowerCase()))],
	pattern: new RegExp([...BASE64_STARTS, ...BASE64_WORDS, ...BASE64_URL_IMAGES].map((h) => h.replace(/[+/]/g, "\\$&")).join("|"), "g"),
	decide: (m, text) => {
		// The base64 around the match: back to where it starts (not past `BASE64_MAX_RUN`), on to where it ends.
		let start = m.index;
		while (start > 0 && m.index - start <= BASE64_MAX_RUN && isBase64Code(text.charCodeAt(start - 1))) start--;
		let end = m.index + m[0].length;
		while (end < text.length && isBase64Code(text.charCodeAt(end))) end++;
		const skip = { skipTo: end };
		if (end - start > BASE64_MAX_RUN || end - start < BASE64_MIN_RUN || base64Depth >= BASE64_MAX_DEPTH) return skip;
		let decoded = decodeBase64Text(text, start, end);
		// A start's encoding may follow what is not base64 but has its characters (`/api/eyJ…`).
		if (decoded === undefined && start < m.index && BASE64_STARTS.includes(m[0])) {
			start = m.index;
			decoded = decodeBase64Text(text, start, end);
		}
		if (decoded === undefined) return skip;
		let padded = end;
		while (padded < end + 2 && text.charCodeAt(padded) === 0x3d) padded++;
		base64Depth++;
		try {
			if (rulesPass(decoded, ignoreKind) === decoded) return { skipTo: padded };
		} finally {
			base64Depth--;
		}
		return { start, end: padded, replacement: redactionMarker("base64-secret"), kind: "base64-secret" };
	},
};

/** Whether base64 decodes to `user:password` (a Basic header's credentials), the password no placeholder. */
function decodesToCredentials(value: string): boolean {
	const text = decodeBase64Text(value, 0, value.length);
	if (text === undefined || !/^[\x20-\x7e]+$/.test(text)) return false;
	const colon = text.indexOf(":");
	return colon >= 0 && colon < text.length - 1 && !isNotSecret(text.slice(colon + 1), "password");
}

// Secrets in percent-encoded text ------------------------------------------------------------------

/**
 * A `%XX` escape of a character that can make a secret's context: a blank, `"`, `%` (encoded
 * twice), `'`, `-`, `:`, `=`, `@`, `_` (`?q=token%3Dghp…`, `password%22%3A%22…`, `ghp%5F…`).
 */
const PERCENT_TRIGGER_RE = /%(?:2[0257dD]|3[aAdD]|40|5[fF])/g;
/** Hints of the percent pass, lower-cased as the others. */
const PERCENT_HINTS = ["%20", "%22", "%25", "%27", "%2d", "%3a", "%3d", "%40", "%5f"];

/** A character of a URL-ish run: not a blank, a quote, a backtick, `<`, `>` or a backslash. */
function isRunCode(c: number): boolean {
	if (c <= 0x20 || c === 0x7f || c === 0xa0 || c === 0x3000 || c === 0x2028 || c === 0x2029 || (c >= 0x2000 && c <= 0x200a)) return false;
	return c !== 0x22 && c !== 0x27 && c !== 0x60 && c !== 0x3c && c !== 0x3e && c !== 0x5c;
}

/** `run` with its `%XX` escapes of ASCII decoded, and where each decoded character starts in `run` (`at[text.length]` is `run.length`). */
function percentDecodeOnce(run: string): { text: string; at: number[] } {
	const chars: string[] = [];
	const at: number[] = [];
	for (let i = 0; i < run.length; ) {
		if (run.charCodeAt(i) === 0x25 && i + 2 < run.length) {
			const hi = hexValue(run.charCodeAt(i + 1));
			const lo = hexValue(run.charCodeAt(i + 2));
			if (hi >= 0 && hi < 8 && lo >= 0) {
				chars.push(String.fromCharCode(hi * 16 + lo));
				at.push(i);
				i += 3;
				continue;
			}
		}
		chars.push(run[i]!);
		at.push(i);
		i++;
	}
	at.push(run.length);
	return { text: chars.join(""), at };
}

function hexValue(c: number): number {
	if (c >= 0x30 && c <= 0x39) return c - 0x30;
	const l = c | 0x20;
	return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/**
 * Percent-encoded secrets: a run of URL-ish text holding an escape of a context character (see
 * `PERCENT_TRIGGER_RE`) is decoded (twice encoded, twice decoded) and judged by the rules; what
 * they change takes the place of its encoded text, the rest stays as it was
 * (`?next=%2Fapi%3Ftoken%3D[redacted:github-token]`).
 */
function redactPercentEncoded(text: string, tally: (kind: string) => void): string {
	const re = PERCENT_TRIGGER_RE;
	re.lastIndex = 0;
	const parts: string[] = [];
	let last = 0;
	for (let m = re.exec(text); m !== null; m = re.exec(text)) {
		let start = m.index;
		while (start > last && isRunCode(text.charCodeAt(start - 1))) start--;
		let end = m.index + m[0].length;
		while (end < text.length && isRunCode(text.charCodeAt(end))) end++;
		re.lastIndex = end;
		let { text: decoded, at } = percentDecodeOnce(text.slice(start, end));
		for (let round = 1; round < 3 && decoded.includes("%"); round++) {
			const again = percentDecodeOnce(decoded);
			if (again.text === decoded) break;
			const outer = at;
			at = again.at.map((i) => outer[i]!);
			decoded = again.text;
		}
		const judged = rulesPass(decoded, tally);
		if (judged === decoded) continue;
		// What the rules changed: between the first and the last character that differ.
		let head = 0;
		while (head < decoded.length && head < judged.length && decoded[head] === judged[head]) head++;
		let tail = 0;
		while (tail < decoded.length - head && tail < judged.length - head && decoded[decoded.length - 1 - tail] === judged[judged.length - 1 - tail]) tail++;
		parts.push(text.slice(last, start + at[head]!), judged.slice(head, judged.length - tail));
		last = start + at[decoded.length - tail]!;
	}
	if (parts.length === 0) return text;
	parts.push(text.slice(last));
	return parts.join("");
}

// Secrets in escaped text ----------------------------------------------------------------------------

/**
 * The lines of escaped text the rules read, decoded, around each escape: the line it is on and
 * the two after it (a key's line, its value's, the value below it), each way no further than
 * `ESCAPED_REACH` (a line of minified JSON); parts closer than `ESCAPED_GAP` are one. A file in a
 * JSON string has an escape on each line, and is read whole; most texts with escapes are code
 * with a few (`"\n".join(…)`), and read whole they cost a fifth of all redaction's time (measured
 * on the corpus: 5 MiB of its strings hold 3,000 `\n`; 0.13 MiB of them have more escaped line
 * ends than real ones).
 */
const ESCAPED_LINES_AFTER = 1;
const ESCAPED_REACH = 1024;
const ESCAPED_GAP = 256;

/**
 * Text written in another's escapes (see escaped-text.ts): a JSON string holding a `.env` file, YAML
 * or more JSON (`\n` two characters, `\"`), XML with entities (`&lt;password&gt;`). The parts of
 * it around its escapes are decoded (a JSON string's escapes twice when what they decode to still
 * holds some) and run through every rule, and what they change there is changed in the text,
 * escaped again; the rest stays as it was: `{"env":"API_KEY=abc\nSECRET_TOKEN=[redacted:secret]"}`.
 */
function redactEscaped(text: string, escapes: Escapes, tally: (kind: string) => void): string {
	const pieces: string[] = [];
	let last = 0;
	for (const [from, to] of escapedParts(text, escapes)) {
		let decoded = escapes.decode(text.slice(from, to));
		if (decoded === undefined) continue;
		let levels = 1;
		const again = escapes.holds(decoded.text) ? escapes.decode(decoded.text) : undefined;
		if (again !== undefined) {
			const outer = decoded.at;
			decoded = { text: again.text, at: again.at.map((i) => outer[i]!) };
			levels++;
		}
		const log: EditLog = { spans: [] };
		const judged = rulesPass(decoded.text, tally, log);
		// Lines a `\` joins in the decoded text (`export API_KEY=\\\n  …` in a JSON string): a shell script's, read joined too.
		const joined = continuedSpans(judged, tally);
		for (const span of joined.length === 0 ? log.spans : composeSpans(log.spans, joined, judged)) {
			let replacement = span.replacement;
			for (let level = 0; level < levels; level++) replacement = escapes.escape(replacement);
			pieces.push(text.slice(last, from + decoded.at[span.start]!), replacement);
			last = from + decoded.at[span.end]!;
		}
	}
	if (pieces.length === 0) return text;
	pieces.push(text.slice(last));
	return pieces.join("");
}

/** The parts of escaped `text` around its escapes (see `ESCAPED_LINES_AFTER`), from a line's start to a line's end, escaped or not; sorted and apart. */
function escapedParts(text: string, escapes: Escapes): [number, number][] {
	const parts: [number, number][] = [];
	const found = escapes.found;
	found.lastIndex = 0;
	for (let m = found.exec(text); m !== null; m = found.exec(text)) {
		const from = lineStartAt(text, m.index, escapes.escapesLineEnds);
		const to = linesAfter(text, m.index + m[0].length, escapes.escapesLineEnds);
		const last = parts[parts.length - 1];
		if (last !== undefined && from <= last[1] + ESCAPED_GAP) last[1] = to;
		else parts.push([from, to]);
		found.lastIndex = Math.max(found.lastIndex, to);
	}
	return parts;
}

/** Where the line holding `at` starts, after a line end escaped (`\n`, `\r`) or not; no further back than `ESCAPED_REACH`. */
function lineStartAt(text: string, at: number, escaped: boolean): number {
	const stop = Math.max(0, at - ESCAPED_REACH);
	for (let i = at - 1; i >= stop; i--) {
		const c = text.charCodeAt(i);
		if (c === 0x0a || c === 0x0d || (escaped && (c === 0x6e || c === 0x72) && text.charCodeAt(i - 1) === 0x5c)) return i + 1;
	}
	return stop;
}

/** Where the line `ESCAPED_LINES_AFTER` after the one holding `at` ends, as `lineStartAt` tells line ends (no further on than `ESCAPED_REACH`). */
function linesAfter(text: string, at: number, escaped: boolean): number {
	const stop = Math.min(text.length, at + ESCAPED_REACH);
	let seen = 0;
	for (let i = at; i < stop; i++) {
		const c = text.charCodeAt(i);
		const end = c === 0x0a || c === 0x0d ? i : escaped && c === 0x5c && (text.charCodeAt(i + 1) === 0x6e || text.charCodeAt(i + 1) === 0x72) ? i : -1;
		if (end >= 0 && seen++ === ESCAPED_LINES_AFTER) return end;
		if (end >= 0 && c === 0x5c) i++;
	}
	return stop;
}

/** Every built-in rule, in the order they run: specific tokens before contextual rules, base64 last (what the others left). */
const BUILTIN_RULES: readonly Rule[] = [...TOKEN_RULES, ...CONTEXT_RULES, OPTION_RULE, XML_ELEMENT_RULE, XML_NAME_VALUE_RULE, SETTER_CALL_RULE, NAMED_SETTER_RULE, ENV_DEFAULT_CALL_RULE, ENV_FALLBACK_RULE, SHELL_DEFAULT_RULE, GO_DECLARATION_RULE, NAMED_FIELD_RULE, TERRAFORM_VARIABLE_RULE, ASSIGNMENT_RULE, PROSE_SECRET_RULE, BASE64_PAYLOAD_RULE];

/**
 * What the passes after the rules need, found by the same scan: a line's continuation (a `\`, a
 * `^` or a backtick after a blank, then a line end: `redactContinued`), a JSON string's escapes
 * and XML's entities (`redactEscaped`). A search of its own for each cost more than all the
 * passes (measured).
 */
const CONTINUATION_HINTS = ["\\\n", "\\\r", "^\n", "^\r", " `\n", " `\r", "\t`\n", "\t`\r"];
const ESCAPE_HINTS = new Map<Escapes, readonly string[]>([
	[JSON_STRING_ESCAPES, ["\\n", "\\r", "\\u", '\\"']],
	[XML_ENTITIES, ["&lt;", "&gt;", "&quot;", "&apos;", "&#"]],
]);
const PASS_HINTS = [...CONTINUATION_HINTS, ...[...ESCAPE_HINTS.values()].flat()];
const PASS_HINT_SET = new Set(PASS_HINTS);

/**
 * Lower-case literals of which at least one must occur (case-insensitively) for any built-in
 * rule to change a text: text without them comes back unchanged (an escape may hide a rule's
 * hint: `\u0070assword`).
 */
export const REDACTION_HINTS: readonly string[] = [...new Set(["private key", ...BUILTIN_RULES.flatMap((r) => r.hints), ...PERCENT_HINTS, ...[...ESCAPE_HINTS.values()].flat()])];

// ---------------------------------------------------------------------------------------------
// Running the rules

/** The edits the rules made to a text, in its places (see `redactContinued`). */
interface EditLog {
	spans: Span[];
}

/**
 * One rule over the text (the caller ran it only where its hints are: see `rulesPass`).
 * `log`: where the edits go too, in the places of the text the first rule was given.
 */
function applyRule(text: string, rule: Rule, tally: (kind: string) => void, log?: EditLog): string {
	if (rule.gate && !rule.gate.test(text)) return text;
	const re = rule.pattern;
	const parts: string[] = [];
	const spans: Span[] = [];
	let last = 0;
	re.lastIndex = 0;
	for (let m = re.exec(text); m !== null; m = re.exec(text)) {
		if (m[0] === "") {
			re.lastIndex++;
			continue;
		}
		const edit = rule.decide(m, text);
		if (edit === undefined) continue;
		if ("skipTo" in edit) {
			re.lastIndex = edit.back ? Math.max(edit.skipTo, m.index + 1) : Math.max(edit.skipTo, re.lastIndex);
			continue;
		}
		const start = Math.max(last, edit.start ?? m.index);
		parts.push(text.slice(last, start), edit.replacement);
		if (log) spans.push(minimalSpan(text, start, edit.end, edit.replacement));
		last = edit.end;
		re.lastIndex = Math.max(edit.end, m.index + 1);
		if (edit.kinds) edit.kinds.forEach(tally);
		else tally(edit.kind);
	}
	if (parts.length === 0) return text;
	if (log) log.spans = composeSpans(log.spans, spans, text);
	parts.push(text.slice(last));
	return parts.join("");
}

function anyOf(found: ReadonlySet<string>, hints: ReadonlySet<string>): boolean {
	for (const h of found) if (hints.has(h)) return true;
	return false;
}

/** Marker spans in `text`, sorted, for keeping custom patterns off them. */
function markerSpans(text: string): [number, number][] {
	const spans: [number, number][] = [];
	if (!text.includes(REDACTION_MARKER)) return spans;
	MARKER_RE.lastIndex = 0;
	for (let m = MARKER_RE.exec(text); m !== null; m = MARKER_RE.exec(text)) spans.push([m.index, m.index + m[0].length]);
	return spans;
}

function overlapsSpan(spans: readonly [number, number][], start: number, end: number): boolean {
	let lo = 0;
	let hi = spans.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		const span = spans[mid];
		if (span !== undefined && span[1] <= start) lo = mid + 1;
		else hi = mid;
	}
	const span = spans[lo];
	return span !== undefined && span[0] < end;
}

function applyCustom(text: string, re: RE2JS, tally: (kind: string) => void): string {
	const spans = markerSpans(text);
	const parts: string[] = [];
	let last = 0;
	const m = re.matcher(text);
	while (m.find()) {
		const start = m.start();
		const end = m.end();
		// An empty match redacts nothing (the matcher moves on by itself).
		if (end === start || overlapsSpan(spans, start, end)) continue;
		parts.push(text.slice(last, start), redactionMarker("custom"));
		last = end;
		tally("custom");
	}
	if (parts.length === 0) return text;
	parts.push(text.slice(last));
	return parts.join("");
}

const ignoreKind = (): void => undefined;

/** Rounds of user patterns then built-in rules; in practice the second round changes nothing. */
const MAX_PASSES = 4;

/**
 * The hints of three or more characters, found in one scan of the text (see `hintsIn`): most
 * strings have none and skip the rules that need one. Rules with a shorter hint ("sk", "-u", "."
 * occur everywhere) are cheap literal-led patterns and always run.
 */
const LONG_RULE_HINTS = [...new Set(BUILTIN_RULES.flatMap((r) => r.hints))].filter((h) => h.length >= 3);
const SHORT_HINT_RULES = BUILTIN_RULES.filter((rule) => rule.hints.some((h) => h.length < 3));
const HAS_SHORT_HINT = BUILTIN_RULES.map((rule) => SHORT_HINT_RULES.includes(rule));
/**
 * For each long hint, the rules it wakes (by their place in `BUILTIN_RULES`): the few hints a text
 * holds pick its rules at once. Asking each rule whether any hint found is one of its own cost a
 * seventh of the redaction of long texts (measured on the bench tree's model strings).
 */
const RULES_BY_HINT = new Map<string, number[]>();
BUILTIN_RULES.forEach((rule, i) => {
	if (HAS_SHORT_HINT[i]) return;
	for (const hint of new Set(rule.hints)) RULES_BY_HINT.set(hint, [...(RULES_BY_HINT.get(hint) ?? []), i]);
});

/**
 * Invisible characters between two characters of a token (a zero-width space, a soft hyphen):
 * pasted from a chat or a page, a token holding one was kept whole, and works once they are
 * dropped. They are dropped between letters, digits and `_-+/=` only (a zero-width joiner, which
 * joins emoji, is not among them).
 */
const INVISIBLE_IN_TOKEN = /(?<=[A-Za-z0-9_\-+/=])[\u200B\u200C\u2060\uFEFF\u00AD]+(?=[A-Za-z0-9_\-+/=])/g;
const ANY_INVISIBLE = /[\u200B\u200C\u2060\uFEFF\u00AD]/;

function builtinPass(given: string, tally: (kind: string) => void): string {
	const input = ANY_INVISIBLE.test(given) ? given.replace(INVISIBLE_IN_TOKEN, "") : given;
	// Hints are looked up in the input: a replacement only removes text or adds a marker.
	const found = hintsIn(input);
	let text: string;
	if (anyOf(found, PASS_HINT_SET)) {
		// The rules see their own hints only: each rule looks for one of its own among those found.
		text = rulesPass(input, tally, undefined, new Set([...found].filter((h) => !PASS_HINT_SET.has(h))));
		if (CONTINUATION_HINTS.some((h) => found.has(h))) text = redactContinued(text, tally);
		for (const [escapes, hints] of ESCAPE_HINTS) if (hints.some((h) => found.has(h))) text = redactEscaped(text, escapes, tally);
	} else text = rulesPass(input, tally, undefined, found);
	// Percent-encoded text, decoded and judged by the same rules (a `%` first: most strings have none).
	if (text.includes("%")) text = redactPercentEncoded(text, tally);
	return redactCutToken(text, tally);
}

/** The private keys (unless `log` is given: see `redactContinued`), then every rule whose hints occur (`found`: those of `input`, when known). */
function rulesPass(input: string, tally: (kind: string) => void, log?: EditLog, found = hintsIn(input)): string {
	let text = log ? input : redactPrivateKeys(input, tally);
	if (found.size === 0) {
		for (const rule of SHORT_HINT_RULES) text = applyRule(text, rule, tally, log);
		return text;
	}
	const woken = new Uint8Array(BUILTIN_RULES.length);
	for (const hint of found) for (const i of RULES_BY_HINT.get(hint) ?? NO_RULES) woken[i] = 1;
	for (let i = 0; i < BUILTIN_RULES.length; i++) if (HAS_SHORT_HINT[i] || woken[i] === 1) text = applyRule(text, BUILTIN_RULES[i]!, tally, log);
	return text;
}

/**
 * Lines a `\` joins (`curl -H "Authorization: Bearer \`, the token on the next line; `export
 * API_KEY=\` and the key below; `mysql -u root \`, `-pX` below), or PowerShell's backtick
 * (`$env:API_KEY = \``) or cmd's `^` (`set API_KEY=^`), are one line to the shell, and the
 * rules read them so: each such part of the text, joined (`joinContinued`: as long as it was),
 * goes through the rules again, and what they change there is changed in the text, whose lines
 * stay as they were (a continuation inside a secret's span goes with it). The private keys were
 * taken with the whole text.
 */
function redactContinued(text: string, tally: (kind: string) => void): string {
	const parts: string[] = [];
	let last = 0;
	for (const span of continuedSpans(text, tally)) {
		parts.push(text.slice(last, span.start), span.replacement);
		last = span.end;
	}
	if (parts.length === 0) return text;
	parts.push(text.slice(last));
	return parts.join("");
}

/** What the rules change in the lines continuations join in `text` (see `redactContinued`), in its places, sorted. */
function continuedSpans(text: string, tally: (kind: string) => void): Span[] {
	const spans: Span[] = [];
	for (const part of continuedLines(text)) {
		const log: EditLog = { spans: [] };
		rulesPass(joinContinued(text, part), tally, log);
		for (const span of log.spans) spans.push({ start: part.start + span.start, end: part.start + span.end, replacement: span.replacement });
	}
	return spans;
}

/** Whether base64url text decodes to a Discord user id: 17 to 20 ASCII digits (`MTk4…` is "198…"). */
function isSnowflakeBase64(part: string): boolean {
	const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	let bits = 0;
	let value = 0;
	let digits = 0;
	for (let i = 0; i < part.length; i++) {
		const v = ALPHABET.indexOf(part[i]!);
		if (v < 0) return false;
		value = ((value << 6) | v) & 0xffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			const byte = (value >> bits) & 0xff;
			if (byte < 0x30 || byte > 0x39) return false;
			digits++;
		}
	}
	return digits >= 17 && digits <= 20;
}

/**
 * Raised when a rule's code changes (what its patterns' text does not show: a check of its matches),
 * or what of a model is redacted (`redact-model.ts`): a stored model is redacted again when loaded.
 */
const RULES_REVISION = 17;

let rulesId: string | undefined;

/**
 * The built-in rules as a short fingerprint (their patterns' text, which the bundles keep, and `RULES_REVISION`): a model stored under other rules (an older release's)
 * is redacted again when loaded, so a token a new rule knows leaves the store too.
 */
export function builtinRulesId(): string {
	// Made on first use: at module load it cost every hook a few milliseconds, and only a sync asks.
	return (rulesId ??= fingerprint(`${RULES_REVISION}\u0001` + BUILTIN_RULES.map((r) => `${r.kind}\u0000${r.pattern.source}\u0000${r.pattern.flags}\u0000${r.cut?.start.source ?? ""}`).join("\u0001")));
}

/** FNV-1a, 32 bits, in base 36: enough to tell one rule set from another. */
function fingerprint(text: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return h.toString(36);
}

/** The token rules that know their token's start, in the order they are tried (`sk-ant-` before `sk-`). */
const CUT_RULES = TOKEN_RULES.flatMap((rule) => (rule.cut ? [{ kind: rule.kind, cut: rule.cut }] : []));

/** How far back from a clip's `…` a cut token is looked for. */
const CUT_LOOKBACK = 400;

/**
 * The token a text ends with, cut short by a clip (`…`): the run of letters, digits and `_-.:`
 * just before it (a Telegram bot's has a colon), at least 5 long and starting with a letter or
 * digit, within the last `CUT_LOOKBACK` characters. Walked back from the end: a pattern anchored
 * at the end was tried from every place of the text, again along each run (measured: a seventh of
 * the redaction of the bench tree's models, most of whose tool results end clipped).
 */
function runBeforeCut(text: string): string | undefined {
	const end = text.length - 1;
	const floor = Math.max(0, text.length - CUT_LOOKBACK);
	let start = end;
	while (start > floor && isTokenChar(text.charCodeAt(start - 1))) start--;
	if (end - start < 5 || !isAlnum(text.charCodeAt(start))) return undefined;
	return text.slice(start, end);
}

function isAlnum(c: number): boolean {
	return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isTokenChar(c: number): boolean {
	return isAlnum(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x3a;
}

/**
 * A token the fold clipped (a long text is kept to its first characters, then `…`) is shorter than
 * its pattern wants, and was kept: 33 of a GitHub token's 36 characters went into the note. A
 * text that ends with the start of one (see `CutStart`) loses it.
 */
function redactCutToken(text: string, tally: (kind: string) => void): string {
	if (text.charCodeAt(text.length - 1) !== 0x2026) return text;
	const run = runBeforeCut(text);
	if (run === undefined) return text;
	// The token may be glued to a name before it (`claude-ghp_…`, `key:ghp_…`): it starts the run or follows a `-`, `_`, `.` or `:` in it.
	for (let at = 0; at >= 0; at = nextStart(run, at)) {
		const token = run.slice(at);
		const found = CUT_RULES.find(({ cut }) => cut.start.test(token) && (!cut.digit || /[0-9]/.test(token)) && (!cut.valid || cut.valid(token)));
		if (!found) continue;
		tally(found.kind);
		const kept = found.cut.keep?.exec(token)?.[0].length ?? 0;
		return `${text.slice(0, text.length - token.length - 1 + kept)}${redactionMarker(found.kind)}…`;
	}
	return text;
}

/**
 * Where the next part of a run of token characters starts: after its next `-`, `_`, `.` or `:`; -1
 * past the last. The part at `from` may itself start with one (`mcp__sk-proj-…`: the token after a
 * `__` was passed over).
 */
function nextStart(run: string, from: number): number {
	for (let i = from; i < run.length - 1; i++) {
		const c = run.charCodeAt(i);
		if (c === 0x2d || c === 0x5f || c === 0x2e || c === 0x3a) return i + 1;
	}
	return -1;
}

/**
 * The rules' long hints that occur in a text, in any ASCII case (the automaton is built on first
 * use: every CLI start pays for it otherwise). One scan of every string: it replaced a
 * case-insensitive regex of the hints (to tell whether any occurs) and, where one did, a lower-cased
 * copy and a scan of it (which): half the time of the two (measured on the corpus transcripts).
 */
let hintAutomaton: ((text: string) => ReadonlySet<string>) | undefined;
function hintsIn(text: string): ReadonlySet<string> {
	hintAutomaton ??= hintFinder([...LONG_RULE_HINTS, ...PASS_HINTS]);
	return hintAutomaton(text);
}

const NO_HINTS: ReadonlySet<string> = new Set();
const NO_RULES: readonly number[] = [];

/** The characters a hint scan encodes at a time (into three bytes each at most): a long text is not copied whole. */
const SCAN_CHARS = 1 << 16;

/** A step of `hintFinder`'s table not worked out yet: no row is this, nor `~row` of one. */
const UNKNOWN_STEP = -0x80000000;

/**
 * Finds which of some lower-case ASCII literals occur in a text, ASCII letters in either case, in
 * one pass (an Aho-Corasick automaton): looking for each of the 60-odd hints in turn cost more
 * than all the rules together (measured).
 */
export function hintFinder(hints: readonly string[]): (text: string) => ReadonlySet<string> {
	// One column per character the hints hold (an ASCII letter in either case is one), 0 for any
	// other: rows of 128 were three times the table to fill, most of a short run's redaction.
	const column = new Uint8Array(128);
	let width = 1;
	for (const hint of hints) {
		// Past ASCII a character has no column, and every text would then be found to hold nothing.
		for (let i = 0; i < hint.length; i++) {
			const c = hint.charCodeAt(i);
			if (c > 0x7f || (c >= 0x41 && c <= 0x5a)) throw new Error(`redaction hint ${JSON.stringify(hint)} is not lower-case ASCII`);
			if (column[c] === 0) column[c] = width++;
		}
		if (hint === "") throw new Error(`redaction hint "" is not lower-case ASCII`);
	}
	for (let c = 0x41; c <= 0x5a; c++) column[c] = column[c + 0x20]!;
	// The trie: each state's children (column, state), and the hints each state completes.
	const children: number[][] = [[]];
	const ends: string[][] = [[]];
	for (const hint of hints) {
		let state = 0;
		for (let i = 0; i < hint.length; i++) {
			const col = column[hint.charCodeAt(i)]!;
			const kids = children[state]!;
			let next = 0;
			for (let k = 0; k < kids.length; k += 2) if (kids[k] === col) next = kids[k + 1]!;
			if (next === 0) {
				next = ends.length;
				kids.push(col, next);
				children.push([]);
				ends.push([]);
			}
			state = next;
		}
		ends[state]!.push(hint);
	}
	// The automaton, one row per state: each step gives the next state's row (its number times
	// `width`), negated (`~row`) for a state that completes a hint, so the scan has no multiplication
	// and no second table per character. A step is worked out the first time it is taken (a process
	// that redacts a few prompts takes few): the table made whole, as an interpreted loop once per
	// process, was most of a hook's redaction (measured: 25-45 ms of 230,000 cells).
	const rows = new Int32Array(ends.length * width).fill(UNKNOWN_STEP);
	const fail = new Int32Array(ends.length);
	const childOf = (state: number, col: number): number => {
		const kids = children[state]!;
		for (let k = 0; k < kids.length; k += 2) if (kids[k] === col) return kids[k + 1]!;
		return 0;
	};
	// The state after `state` on column `col`: its trie child, else the step its failure state takes.
	const stepOf = (state: number, col: number): number => {
		const at = state * width + col;
		const known = rows[at]!;
		if (known !== UNKNOWN_STEP) return (known < 0 ? ~known : known) / width;
		let next = col === 0 ? 0 : childOf(state, col);
		if (next === 0 && state !== 0 && col !== 0) next = stepOf(fail[state]!, col);
		rows[at] = ends[next]!.length > 0 ? ~(next * width) : next * width;
		return next;
	};
	// Failure states breadth first: a child's comes from its parent's, shallower, and a state also
	// completes what its failure state does (known, then, before any step leads to it).
	const queue = [0];
	for (let q = 0; q < queue.length; q++) {
		const state = queue[q]!;
		const kids = children[state]!;
		for (let k = 0; k < kids.length; k += 2) {
			const child = kids[k + 1]!;
			const onFail = state === 0 ? 0 : stepOf(fail[state]!, kids[k]!);
			fail[child] = onFail;
			if (ends[onFail]!.length > 0) ends[child]!.push(...ends[onFail]!);
			queue.push(child);
		}
	}
	// The text is scanned as its UTF-8 bytes: `charCodeAt` over strings of every kind V8 makes
	// (sliced, joined, one- and two-byte) ran the scan in its slowest form for all of them,
	// measured in a first sync: 33 ns a character, 7 this way. Each byte past ASCII (every
	// byte of a character past it) starts matching afresh, as the character did.
	const encoder = new TextEncoder();
	const scratch = new Uint8Array(SCAN_CHARS * 3);
	return (text) => {
		let found: Set<string> | undefined;
		let row = 0;
		// A piece at a time (a character cut in two there is past ASCII on both sides: it still starts afresh).
		for (let from = 0; from < text.length; from += SCAN_CHARS) {
			const length = encoder.encodeInto(text.length <= SCAN_CHARS ? text : text.slice(from, from + SCAN_CHARS), scratch).written;
			for (let i = 0; i < length; i++) {
				const c = scratch[i]!;
				// No hint holds a non-ASCII character: matching starts afresh after one.
				if (c >= 128) {
					row = 0;
					continue;
				}
				let next = rows[row + column[c]!]!;
				if (next < 0) {
					if (next === UNKNOWN_STEP) {
						stepOf(row / width, column[c]!);
						next = rows[row + column[c]!]!;
					}
					if (next < 0) {
						next = ~next;
						for (const hint of ends[next / width]!) (found ??= new Set()).add(hint);
					}
				}
				row = next;
			}
		}
		return found ?? NO_HINTS;
	};
}

/** Strings up to this long are redacted once per redactor (see `createRedactor`), up to this many at a time. */
const MEMO_MAX_CHARS = 128;
const MEMO_MAX_ENTRIES = 8_192;

/** A redactor with the built-in rules and, after them, the user's extra patterns. */
export function createRedactor(options: RedactionOptions = {}): Redactor {
	// The user's patterns run on RE2 (re2js): linear in the text whatever the pattern, so `(a+)+$`
	// cannot hang a sync as it would with JavaScript's backtracking engine. RE2 has no lookaround
	// and no backreferences: such a pattern is reported as invalid.
	const custom: RE2JS[] = [];
	const invalidPatterns: string[] = [];
	for (const source of options.extraPatterns ?? []) {
		try {
			if (source.trim() === "") throw new Error("empty");
			custom.push(re2().RE2JS.compile(source));
		} catch (error) {
			if (error instanceof PatternEngineMissingError) throw error;
			invalidPatterns.push(source);
		}
	}

	const run = (input: string, tally: (kind: string) => void): string => {
		let text = builtinPass(input, tally);
		// A user pattern may remove text that separated a token from what came before it (or
		// depend on context a marker changed), so with user patterns the passes repeat until
		// nothing changes; the built-in rules alone are idempotent in one pass.
		for (let pass = 0; pass < MAX_PASSES && custom.length > 0; pass++) {
			let next = text;
			for (const re of custom) next = applyCustom(next, re, tally);
			if (next === text) break;
			text = builtinPass(next, tally);
		}
		return text;
	};

	const redactWithReport = (input: string): RedactionReport => {
		const byKind: Record<string, number> = {};
		let count = 0;
		const text = run(input, (kind) => {
			byKind[kind] = (byKind[kind] ?? 0) + 1;
			count++;
		});
		return { text, count, byKind };
	};

	// Short strings come again and again (an input's keys, tool and model names, paths): each is
	// redacted once per redactor, which is a pure function of its text (measured on the bench
	// tree's first sync: 355,000 of the 396,000 strings redacted were repeats of 6,000 short ones).
	const memo = new Map<string, string>();
	return {
		// No report to make: a sync redacts every string of every model (160,000 on the bench tree).
		redact: (text) => {
			if (text.length > MEMO_MAX_CHARS) return run(text, ignoreKind);
			let out = memo.get(text);
			if (out === undefined) {
				out = run(text, ignoreKind);
				// Bounded: a history of distinct short strings starts the memo again rather than grow it.
				if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
				memo.set(text, out);
			}
			return out;
		},
		redactWithReport,
		invalidPatterns,
	};
}
