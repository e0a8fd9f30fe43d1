export * from "./claude-install.js";
export * from "./stub-server.js";
export * from "./run-claude.js";
export * from "./project-cli.js";
