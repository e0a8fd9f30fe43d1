/**
 * `ai-memory`. Claude Code runs `ai-memory hook …` on every session start and prompt, so that path
 * loads only the hook code (measured against a bare `node -e 0`); everything else goes through
 * the full command line (and so do `hook --help` and a bare `hook`, which print the help).
 */
const rest = process.argv.slice(3);
const helpAsked = rest.length === 0 || rest.some((a) => a === "--help" || a === "-h" || a === "help");
if (process.argv[2] === "hook" && !helpAsked) void import("./hook-main").then((m) => m.main(process.argv.slice(3)));
else void import("./program").then((m) => m.main(process.argv));
