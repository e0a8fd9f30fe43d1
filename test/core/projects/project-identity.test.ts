import { describe, expect, it } from "vitest";
import { chooseFolders, comparablePath, isWithin, projectKeyOf } from "../../../src/core/projects/project-identity";

describe("project identity", () => {
	it("compares POSIX paths as they are, Windows and UNC paths without case or separator style", () => {
		expect(comparablePath("/home/Alex/cli/")).toBe("/home/Alex/cli");
		expect(comparablePath("C:\\Users\\Pat\\CLI\\")).toBe("c:/users/pat/cli");
		expect(comparablePath("\\\\Server\\Share\\cli")).toBe("//server/share/cli");
		expect(isWithin("C:\\users\\pat\\cli\\src", "c:/Users/Pat/cli")).toBe(true);
		expect(isWithin("/r/repo-wt", "/r/repo")).toBe(false);
		expect(isWithin("/R/repo/src", "/r/repo")).toBe(false);
	});

	it("compares macOS paths without case or normalization, as a Mac's disk does (attack round 25c)", () => {
		// One folder on the Mac, recorded in two cases: two projects, each with half the sessions.
		expect(comparablePath("/Users/A/Code/app/")).toBe(comparablePath("/Users/a/code/app"));
		expect(comparablePath("/Volumes/Data/Work/Café")).toBe(comparablePath("/Volumes/data/work/Cafe\u0301"));
		expect(isWithin("/Users/A/Code/app/src", "/Users/a/code/app")).toBe(true);
		expect(projectKeyOf("/Users/A/Code/app/src", undefined, ["/Users/a/code/app"], [])).toBe("/Users/a/code/app");
		// Linux keeps case: these are two folders.
		expect(comparablePath("/home/A/app")).not.toBe(comparablePath("/home/a/app"));
		expect(comparablePath("/users/A/app")).not.toBe(comparablePath("/users/a/app"));
	});

	it("is the repository root found here; else the deepest recorded repository holding the folder; else the folder", () => {
		expect(projectKeyOf("/r/repo-wt", { root: "/r/repo", repository: true }, [], [])).toBe("/r/repo");
		expect(projectKeyOf("/gone/repo/src", undefined, ["/gone", "/gone/repo"], [])).toBe("/gone/repo");
		expect(projectKeyOf("/gone/other", undefined, ["/gone/repo"], [])).toBe("/gone/other");
		expect(projectKeyOf("C:\\Users\\pat\\cli\\src", undefined, ["c:/users/pat/cli"], [])).toBe("c:/users/pat/cli");
		// A configured folder holds the sessions below it, in git or not, but for a repository of its own below it.
		expect(projectKeyOf("/home/me/notes/sub", { root: "/home/me/notes/sub", repository: false }, [], ["/home/me/notes"])).toBe("/home/me/notes");
		expect(projectKeyOf("/home/me/code/app/src", { root: "/home/me/code/app", repository: true }, [], ["/home/me/code"])).toBe("/home/me/code/app");
		expect(projectKeyOf("/home/me/code/app/src", undefined, ["/home/me/code/app"], ["/home/me/code"])).toBe("/home/me/code/app");
		expect(projectKeyOf("/home/me/code/src", { root: "/home/me/code", repository: true }, [], ["/home/me/code"])).toBe("/home/me/code");
	});

	it("names folders after the repository, unique without case, with the parent folder, then numbered, in sorted order", () => {
		const chosen = chooseFolders(["CLI"], ["/Users/soph/devenv/cli", "/srv/tools/cli", "C:\\Users\\pat\\cli", "\\\\nas\\share\\cli", "/a/tools/cli", "/"]);
		expect(Object.fromEntries(chosen)).toEqual({
			"/": "Unknown project",
			"/Users/soph/devenv/cli": "cli (devenv)",
			"/a/tools/cli": "cli (tools)",
			"/srv/tools/cli": "cli (tools) 2",
			"C:\\Users\\pat\\cli": "cli (pat)",
			"\\\\nas\\share\\cli": "cli (share)",
		});
		expect(chooseFolders([], ["/x/con"]).get("/x/con")).toBe("con_");
	});

	it("gives an enabled project its own name before other new folders of that name, and a rooted folder before a relative one", () => {
		// Sorted as paths alone, `../proj` and `/a/proj` come before `/b/proj` and took its name.
		const chosen = chooseFolders([], ["/b/proj", "../proj", "/a/proj", "proj"], new Set(["/b/proj"]));
		expect(Object.fromEntries(chosen)).toEqual({ "/b/proj": "proj", "/a/proj": "proj (a)", "../proj": "proj 2", proj: "proj 3" });
		expect(chooseFolders([], ["../x", "/r/x"]).get("/r/x")).toBe("x");
	});

	it("keeps a folder with its parent's name within a name's bytes: long names are numbered instead", () => {
		const long = "頁".repeat(55); // 165 bytes each: the two together would be 333
		const chosen = chooseFolders([long], [`/a/${long}/${long}`]);
		expect(chosen.get(`/a/${long}/${long}`)).toBe(`${long} 2`);
	});

	it("keeps a folder with its parent's name within a name's length too: the index's path holds the folder's name twice", () => {
		const [a, b] = ["a".repeat(60), "b".repeat(60)]; // 123 characters together, 123 bytes
		expect(chooseFolders([a], [`/${b}/${a}`]).get(`/${b}/${a}`)).toBe(`${a} 2`);
	});
});
