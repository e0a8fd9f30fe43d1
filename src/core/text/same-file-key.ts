/**
 * What makes two names one file on macOS and Windows: case, and on macOS Unicode normalization too
 * (`café.md` typed NFC and NFD, the way macOS writes names). Both compare letters by simple case
 * folding, which also makes the final sigma `ς` one with `σ` (`ΟΔΟΣ` lower-cased is `οδος`, `οδοσ`
 * is another string, and on those systems the same file). A new name must not meet one taken under
 * it, or on those systems the write would replace that other file.
 */
export function sameFileKey(name: string): string {
	return name.normalize("NFC").toLowerCase().replace(/ς/g, "σ");
}
