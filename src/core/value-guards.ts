/**
 * Checks of a value read from outside (the state, a file another release or a person edited) before
 * it is used as the type it should have: the readers that leave out a record of another shape
 * rather than fail on it share them.
 */

/** An object that is no list and not null. */
export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const isString = (value: unknown): value is string => typeof value === "string";

export const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";

/** A list of texts (empty too). */
export const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** Absent, or as `is` says. */
export const optional = (value: unknown, is: (v: unknown) => boolean): boolean => value === undefined || is(value);
