/**
 * Text in parts encoded as UTF-8 into one buffer, each part as it is: never joined into one string
 * first, whose making (and, for a rope such as a long `JSON.stringify` result, flattening) cost
 * more than the encoding (see `storedJsonParts`, `asciiJsonParts`).
 */
export function utf8Parts(parts: readonly string[]): Buffer {
	let length = 0;
	for (const part of parts) length += Buffer.byteLength(part, "utf8");
	const bytes = Buffer.allocUnsafeSlow(length);
	let at = 0;
	for (const part of parts) at += bytes.write(part, at, "utf8");
	return bytes;
}
