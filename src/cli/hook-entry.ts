import { main } from "./hook-main";

/**
 * `dist/hook.cjs`: the hook code alone, for the commands `hooks install` writes
 * (`node hook.cjs hook <event> --vault … --cli <cli.cjs>`): it starts faster than the whole CLI.
 */
main(process.argv.slice(process.argv[2] === "hook" ? 3 : 2));
