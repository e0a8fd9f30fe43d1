/**
 * Statements of a reply that tell no result even though they read as one: a step left to the
 * user ("Run `bd ready` to see available work"), an option laid out for them to pick ("Option A:
 * minimal and friendly"), what would or will happen ("That will create the repo and push it",
 * "It would have caught the bug in dev"), a guess ("The cache may be stale"), work still going ("Still compiling…"), a task
 * listing's field ("Depends on: Task 1"), the agent's own need or limit ("I need permission to edit
 * the test file", "I don't have any saved memory", "Preciso de permissão…": what it could not do
 * is no result, and what is left open says it), what comes next ("Next task: 012"), and a bare name (".gitignore"). A result slot they
 * fill is a result lost. Anchored patterns over one statement: linear.
 */

/** An opening verb that hands a step to the reader, or a plan's next step ("Then remove the manual call"). */
const INSTRUCTION = /^(?:then\s+|go ahead and\s+)?(?:run|open|go to|visit|click|paste|type|navigate to|restart|reload|refresh|try|copy|press|select|enter|sign in|log in|head to)\b|^then (?:remove|add|update|delete|change|replace|call|use|create|move|set|push|commit)\b/i;
/** An option laid out by its label: "Option A: …", "Approach 2 — …", "Alternative (b) (…)", "Option 3. …". */
export const OPTION_LABEL = String.raw`(?:option|approach|alternative)[ \t]+\(?[a-z0-9]{1,2}\)?[ \t]*[:—–(.-]`;
/** What a Markdown line may open with before its text: a bullet, a heading's `#`s, a number, bold. */
export const LINE_MARKUP = String.raw`[ \t]*(?:[-*][ \t]+|#{1,6}[ \t]+|\d+[.)][ \t]+)?(?:\*\*|__)?`;
/** A statement (or a section's name) that opens with an option's label. */
export const OPTION = new RegExp(`^${OPTION_LABEL}`, "i");
/**
 * What would, could or will happen, not what did ("…will now open Vivaldi" did happen): said of a
 * thing, of us ("We'd continue on the wrong branch") or of the reader ("You'll see a new tab"),
 * and of anyone after the case it hangs on ("If we get disconnected, I'll pick up from the notes").
 * "We'd" before a past participle is "we had", a past: a result.
 */
const MODAL = String.raw`(?:['’]ll|['’]d(?!\s+(?:already|just|never|\w+ed)\b)| will| would| could| might| may)`;
const WOULD = new RegExp(String.raw`^(?:(?:if|unless|once|when|in case)\b[^,\n]{1,120},\s+(?:that|this|it|which|they|these|those|we|you|i)${MODAL}|(?:that|this|it|which|they|these|those|you)${MODAL}|(?:we|i)(?!['’]ll| will)${MODAL})\b(?!\s+now\b)`, "i");
/** A guess about a thing, said of it as its subject ("Worktree might be clean at session start", "The cache may be stale"): a case weighed, not found. */
const GUESS = /^(?:[\w`'"./()-]+\s+){1,6}(?:might|may|could)\s+(?!now\b)/i;
/** Work still going when the reply was written ("Still compiling the test dependencies."). */
const STILL = /^still \w+ing\b/i;
/** A field of a task listing ("Depends on: Task 1", "Priority: P2"): what the task is, not what was done. */
const FIELD = /^(?:depends on|blocked by|blocks|priority|status|assignee|labels?|type|estimate)\s*:/i;
/**
 * The agent's need or limit, now: "I need…", "We need to build it first", "I don't have…", "I can't…", "I'm unable to…", and
 * the same in the languages the corpus holds replies in (Portuguese, Spanish, French, German).
 * Past inability is a finding ("I couldn't reproduce it with the fixture") and stays a result.
 */
const LIMIT = /^(?:(?:i|we)(?:['’]ll| will)? need\b|we have to\b|i (?:don['’]t|do not|can['’]t|cannot) |i(?:['’]m| am) (?:unable|not able) to\b|preciso de\b|necesito\b|(?:não|no) (?:tenho|tengo|consigo|posso|puedo)\b|j['’]ai besoin\b|je (?:n['’]ai pas|ne peux pas)\b|ich (?:brauche|habe keine?|kann nicht)\b)/i;
/** The same need said as what would help the agent ("A few details like the file names would help me pick it up"): what it asks for, not what it did. */
const WOULD_HELP = /\bwould help (?:me|us)\b/i;
/** Another way to what came before ("Or pipe it through `jq` if you want it pretty", "Alternatively, …"): a way offered, not the way taken. */
const ALTERNATIVE = /^(?:or|alternatively)\b/i;
/** A setting and the reader's own value for it ("`API_TOKEN`: your token", "Password: your `SMTP_KEY`"): a blank for them to fill, not a result. */
const YOUR_VALUE = /^[^:\s][^:]{0,59}:\s+your(?:\s+[\w`'.-]+){1,4}$/i;
/** What comes next, labeled so ("Next task: 012", "Next up: the parser", "Up next: …"): where the work goes, not where it got to. */
const NEXT = /^(?:next(?: (?:task|up|phase|item|action|stage|milestone|ticket|issue)s?)?|up next)\s*:/i;
/** Where the repository stands, read off `git status` ("On `main`, up to date", "On branch dev, clean"): a place the session ended in, not work done (a push or commit is told as such). */
const BRANCH_STATE = /^on (?:branch )?`?[\w./-]+`?,? (?:(?:and|all|everything|which is) )?(?:up to date|up-to-date|clean|in sync)(?:(?:,| and) (?:up to date|up-to-date|clean|in sync)(?: with [\w`./-]+)?)?$/i;
/** A line that is only an HTML comment (`<!-- TODO: … -->`): hidden where the reply is shown, no result. */
const COMMENT = /^<!--[\s\S]*-->$/;
/** One token, no space, in a script that spaces its words: a name, not a statement. */
const BARE_NAME = /^[\x21-\x7e]+$/;

/** Whether a statement is a field of a listing ("Status: Not planned yet"): it says nothing without the item it describes, named elsewhere. */
export function isListingField(statement: string): boolean {
	return FIELD.test(statement.trim());
}

export function isNotResult(statement: string): boolean {
	const s = statement.trim();
	return INSTRUCTION.test(s) || OPTION.test(s) || WOULD.test(s) || GUESS.test(s) || STILL.test(s) || FIELD.test(s) || NEXT.test(s) || LIMIT.test(s) || WOULD_HELP.test(s) || ALTERNATIVE.test(s) || YOUR_VALUE.test(s.replace(/[.!]+$/, "")) || COMMENT.test(s) || BRANCH_STATE.test(s.replace(/[.!]+$/, "")) || BARE_NAME.test(s.replace(/[.!]+$/, ""));
}
