/**
 * The first key that an object of `text` (JSON that `JSON.parse` took) gives twice, as the keys and
 * indexes leading to it from the top (`["devices", "pc", "projects"]`), or undefined. `JSON.parse`
 * keeps the last of the two without a word: a settings file edited by hand with a second
 * `"excludedProjects"` had its first list (and the projects it kept out) dropped, and the next edit
 * wrote the file back without it. One pass over the text, whatever its depth.
 */
export function repeatedKey(text: string): string[] | undefined {
	// One frame per open object or array: an object's keys so far, and where its current member is.
	const frames: { keys: Set<string> | undefined; at: string; index: number }[] = [];
	let keyNext = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x22) {
			const end = stringEnd(text, i);
			const top = frames[frames.length - 1];
			if (keyNext && top?.keys !== undefined) {
				// Compared as parsed: `"a"` and `"\u0061"` are one key to JSON.parse.
				const key = JSON.parse(text.slice(i, end + 1)) as string;
				if (top.keys.has(key)) return [...frames.slice(0, -1).map((f) => f.at), key];
				top.keys.add(key);
				top.at = key;
				keyNext = false;
			}
			i = end;
		} else if (c === 0x7b) {
			frames.push({ keys: new Set(), at: "", index: 0 });
			keyNext = true;
		} else if (c === 0x5b) {
			frames.push({ keys: undefined, at: "0", index: 0 });
			keyNext = false;
		} else if (c === 0x7d || c === 0x5d) frames.pop();
		else if (c === 0x2c) {
			const top = frames[frames.length - 1];
			if (top?.keys !== undefined) keyNext = true;
			else if (top !== undefined) top.at = String(++top.index);
		}
	}
	return undefined;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
	let i = start + 1;
	while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
	return i;
}

/** What a settings file that gives a key twice is told (see `repeatedKey`), or undefined. */
export function repeatedKeyProblem(text: string): string | undefined {
	const path = repeatedKey(text);
	if (path === undefined) return undefined;
	const where = path.slice(0, -1).reverse().map((k) => JSON.stringify(k));
	return `the key ${JSON.stringify(path[path.length - 1])}${where.length > 0 ? ` (in ${where.join(" in ")})` : ""} is given twice, and only the last would be read: keep one`;
}
