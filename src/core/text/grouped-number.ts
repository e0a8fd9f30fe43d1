/**
 * A count as `en-US` writes it, thousands grouped by commas (`1,200`), made by hand: the first
 * `toLocaleString("en-US")` of a process loads ICU's number formatting, 20 ms of a CLI sync that
 * prints one sentence (measured on this kind of machine: `(1234).toLocaleString("en-US")` alone
 * in a fresh `node`). Anything but a whole number of 16 digits or fewer is written as
 * `toLocaleString` would write it.
 */
export function grouped(n: number): string {
	if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
	const digits = String(Math.abs(n));
	let out = digits.length % 3 === 0 ? "" : digits.slice(0, digits.length % 3);
	for (let i = digits.length % 3; i < digits.length; i += 3) out += (out === "" ? "" : ",") + digits.slice(i, i + 3);
	return n < 0 ? `-${out}` : out;
}
