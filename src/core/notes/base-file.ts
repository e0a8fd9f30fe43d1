/**
 * An Obsidian Bases view of all session notes: by date, by project, by agent, by topic. Written
 * once when missing; after that it is the user's to change. Only the syntax Obsidian documents
 * (Bases syntax and functions, 1.10+): properties by their full id (`note.started`, `file.name`,
 * `formula.topic`), sessions picked by `file.hasProperty`, and `sort` as `BasesSortConfig`.
 * Bases puts each row in one group, so grouping by `tags` would group by the whole list: the
 * topic view groups by each session's main topic (its first tag after the project tag).
 */
export function renderSessionsBase(notesFolder: string, tagPrefix = "ai/"): string {
	// The folder as the notes are written in it (`x/./y/` is `x/y`): Bases compares the path as it is.
	const folder = JSON.stringify(folderParts(notesFolder).join("/"));
	const projectTag = JSON.stringify(`${tagPrefix}project/`);
	const topic = `note.tags.filter(!value.startsWith(${projectTag}))[0]`;
	// Quoted: a folder "AI: Chats" or "Notes #ai" made the plain YAML item a mapping or cut it at a comment.
	return `filters:
  and:
    - ${yamlString(`file.inFolder(${folder})`)}
    - file.hasProperty("session_id")
formulas:
  topic: ${yamlString(topic)}
properties:
  note.started:
    displayName: Started
  note.prompts:
    displayName: Prompts
  note.tool_calls:
    displayName: Tool calls
  formula.topic:
    displayName: Main topic
views:
  - type: table
    name: By date
    order:
      - file.name
      - note.agent
      - note.project
      - note.started
      - note.duration
      - note.prompts
      - note.tags
    sort:
      - property: note.started
        direction: DESC
  - type: table
    name: By project
    groupBy:
      property: note.project
      direction: ASC
    order:
      - file.name
      - note.started
      - note.prompts
      - note.tool_calls
      - note.tags
    sort:
      - property: note.started
        direction: DESC
  - type: table
    name: By agent
    groupBy:
      property: note.agent
      direction: ASC
    order:
      - file.name
      - note.project
      - note.started
      - note.prompts
    sort:
      - property: note.started
        direction: DESC
  - type: table
    name: By topic
    groupBy:
      property: formula.topic
      direction: ASC
    order:
      - file.name
      - note.project
      - note.started
      - note.tags
    sort:
      - property: note.started
        direction: DESC
`;
}

/** A single-quoted YAML string (a formula has double quotes in it). */
function yamlString(text: string): string {
	return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Where the notes folder's Bases file goes: in the folder, named for its last part
 * (`Work/AI notes/AI notes.base`). Named for the whole path, a nested folder's was written in a
 * `Work/` folder of its own inside the notes folder, and one set with a trailing slash got a
 * hidden `.base`.
 */
export function sessionsBasePath(notesFolder: string): string {
	const parts = folderParts(notesFolder);
	// No part (a notes folder of `/` or `./`, the vault's top): named as the default notes folder is.
	const name = `${parts.at(-1) ?? "AI Conversations"}.base`;
	return parts.length === 0 ? name : `${parts.join("/")}/${name}`;
}

function folderParts(notesFolder: string): string[] {
	return notesFolder.split("/").filter((p) => p !== "" && p !== ".");
}
