/**
 * An Obsidian Bases view of all session notes: by date, by project, by agent, by topic. Written
 * once when missing; after that it is the user's to change. Only the syntax Obsidian documents
 * (Bases syntax and functions, 1.10+): properties by their full id (`note.started`, `file.name`,
 * `formula.topic`), sessions picked by `file.hasProperty`, and `sort` as `BasesSortConfig`.
 * Bases puts each row in one group, so grouping by `tags` would group by the whole list: the
 * topic view groups by each session's main topic (its first tag after the project tag).
 */
export function renderSessionsBase(notesFolder: string, tagPrefix = "ai/"): string {
	const folder = JSON.stringify(notesFolder);
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
