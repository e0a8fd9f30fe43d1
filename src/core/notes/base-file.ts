/**
 * An Obsidian Bases view of all session notes: by date, by project, by agent, by tag. Written once when
 * missing; after that it is the user's to change.
 */
export function renderSessionsBase(notesFolder: string): string {
	const folder = JSON.stringify(notesFolder);
	return `filters:
  and:
    - file.inFolder(${folder})
    - 'session_id != null'
properties:
  note.started:
    displayName: Started
  note.prompts:
    displayName: Prompts
  note.tool_calls:
    displayName: Tool calls
views:
  - type: table
    name: By date
    order:
      - file.name
      - agent
      - project
      - started
      - duration
      - prompts
      - tags
    sort:
      - property: started
        direction: DESC
  - type: table
    name: By project
    groupBy:
      property: project
      direction: ASC
    order:
      - file.name
      - started
      - prompts
      - tool_calls
      - tags
    sort:
      - property: started
        direction: DESC
  - type: table
    name: By agent
    groupBy:
      property: agent
      direction: ASC
    order:
      - file.name
      - project
      - started
      - prompts
    sort:
      - property: started
        direction: DESC
  - type: table
    name: By tag
    groupBy:
      property: tags
      direction: ASC
    order:
      - file.name
      - project
      - started
    sort:
      - property: started
        direction: DESC
`;
}
