import { describe, expect, it } from "vitest";
import { untrustedGitEnv } from "../../src/node/untrusted-git";

describe("untrustedGitEnv", () => {
	it("drops this process's GIT_* variables, keeps the rest, and turns lazy fetching and prompts off", () => {
		const env = untrustedGitEnv({ PATH: "/usr/bin", HOME: "/home/a", GIT_DIR: "/elsewhere/.git", GIT_WORK_TREE: "/elsewhere", GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='x'" });
		expect(env).toEqual({ PATH: "/usr/bin", HOME: "/home/a", GIT_NO_LAZY_FETCH: "1", GIT_TERMINAL_PROMPT: "0" });
	});
});
