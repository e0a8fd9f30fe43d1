export * from "./claude-install.js";
export * from "./stub-server.js";
export * from "./run-claude.js";
export * from "./project-cli.js";
export * from "./codex-install.js";
export * from "./codex-stub.js";
export * from "./run-codex.js";
