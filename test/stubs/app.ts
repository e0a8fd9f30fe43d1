import { type App, FileManager, FileSystemAdapter, MetadataCache, Vault, Workspace } from "./obsidian";

/** An app around a stub vault (on `basePath` when given, like a desktop vault), its layout not ready yet. */
export function stubApp(vault = new Vault(), basePath?: string): App {
	if (basePath !== undefined) vault.adapter = new FileSystemAdapter(basePath);
	const app: App = { vault, fileManager: new FileManager(vault), metadataCache: new MetadataCache(vault), workspace: new Workspace() };
	app.workspace.app = app;
	return app;
}
