import { parse as parseYaml } from "yaml";

/**
 * The `chat-history-file` an Aider config file (`.aider.conf.yml`) names, as it is written, or
 * undefined when it names none (or is no YAML mapping). The text is the repository's: untrusted, so
 * aliases are not expanded beyond a few (an alias bomb parses to nothing) and only a string counts.
 */
export function aiderHistorySetting(yamlText: string): string | undefined {
	let data: unknown;
	try {
		data = parseYaml(yamlText, { logLevel: "silent", maxAliasCount: 10, uniqueKeys: false });
	} catch {
		return undefined;
	}
	if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
	const value = (data as Record<string, unknown>)["chat-history-file"];
	return typeof value === "string" && value.trim() !== "" && !value.includes("\0") ? value.trim() : undefined;
}
