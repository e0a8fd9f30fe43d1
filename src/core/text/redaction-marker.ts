/**
 * How every marker that replaces a secret begins (`[redacted:<kind>]`, see `digest/redact.ts`):
 * text that holds it was redacted. One constant for the readers that look for it (a clipped tool
 * input, a fact's copy, a replayed prompt), so they never drift from what the redactor writes.
 */
export const REDACTION_MARKER = "[redacted:";
