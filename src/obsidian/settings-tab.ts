import { type App, Notice, normalizePath, type Plugin, PluginSettingTab, Setting, type SettingDefinitionItem } from "obsidian";
import { normalizePrefix } from "../core/digest/tags/tag-name";
import {
	BUDGET_MAX,
	BUDGET_MIN,
	clampDebounce,
	DEBOUNCE_MAX_MS,
	DEBOUNCE_MIN_MS,
	DEFAULT_PROJECT,
	DEFAULT_SETTINGS,
	foldersProblem,
	isWholeFolderPath,
	type DetailLevel,
	formatKeywordRules,
	parseKeywordRules,
	parseLines,
	parsePatterns,
	type ContextMode,
	type ContextTarget,
	type ProjectSettings,
	type Settings,
} from "../core/settings";
import type { DiscoveredProject } from "../core/projects/project-discovery";
import { AGENT_NAMES } from "../core/transcript/agents";
import { BUNDLED_PRICES, formatPriceLines, parsePriceLines, PRICES_AS_OF } from "../core/usage/model-prices";

/** What the tab needs from the plugin; the tab itself touches no file. */
export interface SettingsTabHost {
	/** The settings as they are now (this device's view). */
	get(): Settings;
	/** Stores new settings (the tab passes a copy it no longer changes). */
	save(settings: Settings): Promise<void>;
	/** Projects seen in the transcripts, latest first. */
	discover(): Promise<DiscoveredProject[]>;
	/**
	 * What is wrong with a Claude Code folder (`""`: the default one), e.g. that it does not exist
	 * or holds no `projects/` folder; undefined when it is usable.
	 */
	checkClaudeDir(path: string): Promise<string | undefined>;
	/** A folder to add as a project, as `ai-memory projects add` checks it: its normalized path, or why not. */
	checkProject(path: string, projects: readonly ProjectSettings[]): Promise<{ path: string } | { error: string }>;
}

// Names and paths, not prose: kept out of the sentence-case check, which would lower-case them.
const CLAUDE_CODE = "Claude Code";
const HOME_CLAUDE_DIR = "~/.claude";
/** Where each other agent keeps its sessions when its folder is not set (see node/agent-homes.ts). */
const AGENT_DEFAULT_DIRS = { codex: "$CODEX_HOME or ~/.codex", "gemini-cli": "~/.gemini", "copilot-cli": "$COPILOT_HOME or ~/.copilot", opencode: "$XDG_DATA_HOME/opencode or ~/.local/share/opencode" } as const;
const DEFAULT_CLAUDE_DIR = `$CLAUDE_CONFIG_DIR, else ${HOME_CLAUDE_DIR}`;
const RULES_EXAMPLE = "payment: billing\n결제: billing";

/** Where a field says what is wrong with its value (empty and hidden when nothing is). */
const ERROR = "ai-memory-setting-error";
/** A relative folder named wherever the sync happened to run. */
const WHOLE_PATH = "Write the folder's whole path (/Users/you/…, C:\\Users\\you\\…), or start it with ~/ for your home folder.";

/** Text fields are saved once typing pauses this long (and at once when the tab closes). */
export const TEXT_SAVE_DELAY_MS = 600;

const DETAIL_NAMES: Record<DetailLevel, string> = {
	digest: "Digest",
	conversation: "Conversation",
	full: "Conversation with tool output",
};

const TARGET_NAMES: Record<ContextTarget, string> = {
	"CLAUDE.md": "CLAUDE.md (shared with the repository)",
	"CLAUDE.local.md": "CLAUDE.local.md (this machine only)",
};

const MODE_NAMES: Record<ContextMode, string> = {
	eager: "Eager: recent sessions in the file",
	lazy: "Lazy: a short pointer to a context note",
};

/**
 * The plugin's settings page. Every change is saved through the host: toggles and dropdowns at
 * once, text fields when typing pauses, and those that decide which sessions are read or what
 * becomes of every note when left (`savedOnLeave`). Values that cannot be used (a regular expression that does not
 * compile, a transcripts folder that is not one) show what is wrong beside the field and are not
 * saved.
 */
export class SettingsTab extends PluginSettingTab {
	/** The settings being edited; a copy goes to the host on every save. */
	private draft: Settings = structuredClone({ ...DEFAULT_SETTINGS });
	private discovered: DiscoveredProject[] | undefined;
	private projectsEl: HTMLElement | undefined;
	/** Text changes waiting for typing to pause, by field: each applies itself and says whether it changed anything. */
	private readonly pending = new Map<string, () => Promise<boolean> | boolean>();
	/** Fields saved when left, not when typing pauses (`savedOnLeave`). */
	private readonly onLeave = new Set<string>();
	private timer: number | undefined;
	/** Flushes and saves run one after another, in the order they were asked for. */
	private queue: Promise<void> = Promise.resolve();
	/** Bumped on every display(), so that late answers for an older page are dropped. */
	private generation = 0;

	constructor(
		app: App,
		plugin: Plugin,
		private readonly host: SettingsTabHost,
	) {
		super(app, plugin);
	}

	/**
	 * No declarative definitions: from Obsidian 1.13 a non-empty list would replace display(), and
	 * this tab renders what definitions cannot express yet on the versions it supports (minAppVersion
	 * 1.8.7): the discovered projects and validation beside each field. An empty list keeps display().
	 */
	override getSettingDefinitions(): SettingDefinitionItem[] {
		return [];
	}

	/** Renders the page afresh from the plugin's settings; Obsidian calls it each time the tab opens. */
	override display(): void {
		const generation = ++this.generation;
		// Obsidian hides a tab before showing it again; should it not, nothing typed is lost.
		if (this.pending.size > 0) void this.flush();
		this.draft = structuredClone(this.host.get());
		this.discovered = undefined;
		const { containerEl } = this;
		containerEl.empty();

		this.transcriptsSection(containerEl, generation);
		this.notesSection(containerEl);
		this.tagsSection(containerEl);
		this.redactionSection(containerEl);
		this.pricesSection(containerEl);
		this.projectsSection(containerEl, generation);
	}

	/** Leaving the tab saves what was typed last. */
	override hide(): void {
		void this.flush();
		super.hide();
	}

	/** Applies and saves text changes still waiting for typing to pause; resolves once saved. */
	flush(): Promise<void> {
		return this.run(false);
	}

	/**
	 * Applies what waits and, when anything changed (or `force`), saves a copy of the draft.
	 * `paused`: typing paused, so a field saved when left (`savedOnLeave`) waits on.
	 */
	private run(force: boolean, paused = false): Promise<void> {
		if (this.timer !== undefined) window.clearTimeout(this.timer);
		this.timer = undefined;
		const taken = [...this.pending].filter(([key]) => !(paused && this.onLeave.has(key)));
		for (const [key] of taken) this.pending.delete(key);
		const actions = taken.map(([, apply]) => apply);
		this.queue = this.queue.then(async () => {
			let changed = force;
			for (const apply of actions) changed = (await apply()) || changed;
			if (!changed) return;
			try {
				await this.host.save(structuredClone(this.draft));
			} catch (error) {
				new Notice(`Could not save the settings: ${error instanceof Error ? error.message : String(error)}`);
			}
		});
		return this.queue;
	}

	// -------------------------------------------------------------------------------------------

	private transcriptsSection(el: HTMLElement, generation: number): void {
		new Setting(el).setName("Transcripts").setHeading();
		let problemEl: HTMLElement | undefined;
		const show = (problem: string | undefined) => problemEl?.setText(problem ?? "");
		const check = (path: string) => this.host.checkClaudeDir(path).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
		const setting = new Setting(el)
			.setName("Transcripts folder")
			.setDesc(`The folder where ${CLAUDE_CODE} keeps its data on this device, the one that holds projects/. Leave empty for the default: ${DEFAULT_CLAUDE_DIR}. Kept per device.`)
			.addText((text) => {
				text.setPlaceholder(HOME_CLAUDE_DIR).setValue(this.draft.claudeDir ?? "");
				text.onChange(() =>
					this.later("claudeDir", async () => {
						const value = text.getValue().trim();
						const problem = value !== "" && !isWholeFolderPath(value) ? WHOLE_PATH : await check(value);
						// Typing went on meanwhile: the newer value is checked on its own.
						if (text.getValue().trim() !== value) return false;
						show(problem);
						if (problem !== undefined && value !== "") return false;
						if ((this.draft.claudeDir ?? "") === value) return false;
						if (value === "") delete this.draft.claudeDir;
						else this.draft.claudeDir = value;
						return true;
					}),
				);
				this.savedOnLeave(text.inputEl, "claudeDir");
			});
		problemEl = setting.descEl.createDiv({ cls: ERROR });
		void check(this.draft.claudeDir ?? "").then((problem) => {
			if (generation === this.generation && !this.pending.has("claudeDir")) show(problem);
		});

		// The other agents: read or not (shared), and each one's folder on this device.
		for (const agent of ["codex", "gemini-cli", "copilot-cli", "opencode"] as const) {
			const name = AGENT_NAMES[agent];
			new Setting(el)
				.setName(`Read ${name} sessions`)
				.setDesc(`Its sessions become notes like ${CLAUDE_CODE}'s, in the same projects.`)
				.addToggle((t) =>
					t.setValue(this.draft.agents.includes(agent)).onChange((on) =>
						this.now(() => {
							this.draft.agents = on ? [...new Set([...this.draft.agents, agent])] : this.draft.agents.filter((a) => a !== agent);
						}),
					),
				);
			let dirError: HTMLElement | undefined;
			const dirSetting = new Setting(el)
				.setName(`${name} folder`)
				.setDesc(`Leave empty for the default: ${AGENT_DEFAULT_DIRS[agent]}. Kept per device.`)
				.addText((text) => {
					text.setPlaceholder(AGENT_DEFAULT_DIRS[agent]).setValue(this.draft.agentDirs?.[agent] ?? "");
					text.onChange(() =>
						this.later(`agentDir:${agent}`, () => {
							const value = text.getValue().trim();
							// Saved, a folder that is not a whole path stops every sync (see `settingsProblem`).
							const whole = value === "" || isWholeFolderPath(value);
							dirError?.setText(whole ? "" : WHOLE_PATH);
							if (!whole) return false;
							const dirs = { ...this.draft.agentDirs };
							if (value === "") delete dirs[agent];
							else dirs[agent] = value;
							this.draft.agentDirs = Object.keys(dirs).length === 0 ? undefined : dirs;
							return true;
						}),
					);
					this.savedOnLeave(text.inputEl, `agentDir:${agent}`);
				});
			dirError = dirSetting.descEl.createDiv({ cls: ERROR });
		}

		// Aider keeps its history in the repository: read in the enabled projects, no folder to set.
		new Setting(el)
			.setName(`Read ${AGENT_NAMES.aider} sessions`)
			.setDesc(`From each enabled project's chat history (.aider.chat.history.md, or the chat-history-file its .aider.conf.yml names); its sessions become notes like ${CLAUDE_CODE}'s.`)
			.addToggle((t) =>
				t.setValue(this.draft.agents.includes("aider")).onChange((on) =>
					this.now(() => {
						this.draft.agents = on ? [...new Set([...this.draft.agents, "aider" as const])] : this.draft.agents.filter((a) => a !== "aider");
					}),
				),
			);

		new Setting(el)
			.setName("Sync when transcripts change")
			.setDesc("Off: sync only with the command.")
			.addToggle((t) => t.setValue(this.draft.watch).onChange((on) => this.now(() => (this.draft.watch = on))));

		this.numberField(el, "debounceMs", {
			name: "Wait after a change (ms)",
			desc: `How long transcripts must stay unchanged before a sync, from ${DEBOUNCE_MIN_MS} to ${DEBOUNCE_MAX_MS}.`,
			value: () => this.draft.debounceMs,
			apply: (n) => (this.draft.debounceMs = clampDebounce(n)),
			min: DEBOUNCE_MIN_MS,
			max: DEBOUNCE_MAX_MS,
		});
	}

	private notesSection(el: HTMLElement): void {
		new Setting(el).setName("Notes").setHeading();
		let folderError: HTMLElement | undefined;
		const folder = (key: "notesFolder" | "memoryFolder", other: "notesFolder" | "memoryFolder", name: string, desc: string) => {
			const setting = new Setting(el)
				.setName(name)
				.setDesc(desc)
				.addText((text) => {
					text.setPlaceholder(DEFAULT_SETTINGS[key]).setValue(this.draft[key]);
					text.onChange(() =>
						this.later(key, () => {
							const raw = text.getValue().trim();
							const value = raw === "" ? DEFAULT_SETTINGS[key] : normalizePath(raw);
							const pair = (folder: string) => (key === "notesFolder" ? { notesFolder: folder, memoryFolder: this.draft.memoryFolder } : { notesFolder: this.draft.notesFolder, memoryFolder: folder });
							// normalizePath takes a leading slash off: the folder as typed tells an absolute path, which the sync refuses.
							const problem = foldersProblem(pair(value)) ?? foldersProblem(pair(raw));
							if (problem) {
								folderError?.setText(`${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
								return false;
							}
							folderError?.setText("");
							if (this.draft[key] === value) return false;
							this.draft[key] = value;
							return true;
						}),
					);
					this.savedOnLeave(text.inputEl, key, () => {
						if (folderError?.textContent === "") text.setValue(this.draft[key]);
					});
				});
			return setting;
		};
		folder("notesFolder", "memoryFolder", "Notes folder", "One note per session, in a folder per project.");
		const memory = folder("memoryFolder", "notesFolder", "Memory folder", "One note per fact, in a folder per project.");
		folderError = memory.descEl.createDiv({ cls: ERROR });

		new Setting(el)
			.setName("Detail")
			.setDesc("What a session note holds after its digest.")
			.addDropdown((d) => {
				for (const [value, name] of Object.entries(DETAIL_NAMES)) d.addOption(value, name);
				d.setValue(this.draft.detail).onChange((value) => this.now(() => (this.draft.detail = value as DetailLevel)));
			});
	}

	private tagsSection(el: HTMLElement): void {
		new Setting(el).setName("Tags").setHeading();
		new Setting(el)
			.setName("Tag prefix")
			.setDesc("Topic tags nest under it.")
			.addText((text) => {
				text.setPlaceholder(DEFAULT_SETTINGS.tagPrefix).setValue(this.draft.tagPrefix);
				text.onChange(() =>
					this.later("tagPrefix", () => {
						const value = normalizePrefix(text.getValue()) || DEFAULT_SETTINGS.tagPrefix;
						if (value === this.draft.tagPrefix) return false;
						this.draft.tagPrefix = value;
						return true;
					}),
				);
				this.savedOnLeave(text.inputEl, "tagPrefix", () => {
					text.setValue(this.draft.tagPrefix);
				});
			});

		const rules = new Setting(el).setName("Keyword rules").setDesc("One rule per line, keyword: tag. A prompt that mentions the keyword gets the tag.");
		const rulesError = rules.descEl.createDiv({ cls: ERROR });
		rules.addTextArea((area) => {
			area.setPlaceholder(RULES_EXAMPLE).setValue(formatKeywordRules(this.draft.keywordRules));
			area.inputEl.rows = 5;
			area.onChange(() =>
				this.later("keywordRules", () => {
					const { rules: parsed, errors } = parseKeywordRules(area.getValue());
					rulesError.setText(errors.join("\n"));
					if (errors.length > 0 || JSON.stringify(parsed) === JSON.stringify(this.draft.keywordRules)) return false;
					this.draft.keywordRules = parsed;
					return true;
				}),
			);
			area.inputEl.addEventListener("blur", () => {
				if (!this.pending.has("keywordRules") && rulesError.textContent === "") area.setValue(formatKeywordRules(this.draft.keywordRules));
			});
		});
	}

	/** The prices the cost estimates use: the bundled, dated table, and the user's own over it. */
	private pricesSection(el: HTMLElement): void {
		new Setting(el).setName("Cost estimates").setHeading();
		const prices = new Setting(el)
			.setName("Model prices")
			.setDesc(`The sessions view estimates cost from list prices as of ${PRICES_AS_OF} (${Object.keys(BUNDLED_PRICES).length} models). Your own prices win, one model per line: model: input output cache-read cache-write, in dollars per million tokens.`);
		const pricesError = prices.descEl.createDiv({ cls: ERROR });
		prices.addTextArea((area) => {
			area.setPlaceholder("claude-opus-4-5: 5 25 0.5 6.25").setValue(formatPriceLines(this.draft.prices));
			area.inputEl.rows = 3;
			area.onChange(() =>
				this.later("prices", () => {
					const { prices: parsed, errors } = parsePriceLines(area.getValue());
					pricesError.setText(errors.join("\n"));
					if (errors.length > 0 || JSON.stringify(parsed) === JSON.stringify(this.draft.prices)) return false;
					this.draft.prices = parsed;
					return true;
				}),
			);
		});
	}

	private redactionSection(el: HTMLElement): void {
		new Setting(el).setName("Privacy").setHeading();
		new Setting(el)
			.setName("Redact secrets")
			.setDesc("API keys, tokens, passwords and private keys are replaced before anything is written.")
			.addToggle((t) => t.setValue(this.draft.redaction.enabled).onChange((on) => this.now(() => (this.draft.redaction.enabled = on))));

		const patterns = new Setting(el).setName("Extra patterns").setDesc("One regular expression per line; what it matches is redacted too.");
		const patternsError = patterns.descEl.createDiv({ cls: ERROR });
		patterns.addTextArea((area) => {
			area.setPlaceholder("ACME-[0-9]{6}").setValue(this.draft.redaction.extraPatterns.join("\n"));
			area.inputEl.rows = 4;
			area.onChange(() =>
				this.later("extraPatterns", () => {
					const { patterns: parsed, errors } = parsePatterns(area.getValue());
					patternsError.setText(errors.join("\n"));
					if (errors.length > 0 || JSON.stringify(parsed) === JSON.stringify(this.draft.redaction.extraPatterns)) return false;
					this.draft.redaction.extraPatterns = parsed;
					return true;
				}),
			);
			this.savedOnLeave(area.inputEl, "extraPatterns");
		});

		new Setting(el)
			.setName("Excluded projects")
			.setDesc("One project path or pattern per line (* within a folder, ** across folders); their sessions are never read.")
			.addTextArea((area) => {
				area.setPlaceholder("/home/me/work/secret-client/**").setValue(this.draft.excludedProjects.join("\n"));
				area.inputEl.rows = 3;
				area.onChange(() =>
					this.later("excludedProjects", () => {
						const parsed = parseLines(area.getValue());
						if (JSON.stringify(parsed) === JSON.stringify(this.draft.excludedProjects)) return false;
						this.draft.excludedProjects = parsed;
						return true;
					}),
				);
				this.savedOnLeave(area.inputEl, "excludedProjects");
			});
	}

	// -------------------------------------------------------------------------------------------
	// Projects: those seen in the transcripts and those in the settings, each on or off.

	private projectsSection(el: HTMLElement, generation: number): void {
		new Setting(el)
			.setName("Projects")
			.setDesc("For projects turned on, each sync writes a summary of recent sessions into the project's CLAUDE.md and shares facts with Claude Code's memory. Kept per device.")
			.setHeading();
		this.projectsEl = el.createDiv({ cls: "ai-memory-projects" });
		this.projectsEl.createDiv({ cls: "ai-memory-status", text: "Looking for projects…" });

		let pathInput: HTMLInputElement | undefined;
		const add = new Setting(el)
			.setName("Add project")
			.setDesc("The absolute path of the folder you start Claude in.")
			.addText((text) => {
				text.setPlaceholder("/home/me/code/my-app");
				pathInput = text.inputEl;
			})
			.addButton((b) =>
				b.setButtonText("Add").onClick(() => {
					this.pending.set("add project", addProject);
					void this.flush();
				}),
			);
		const addError = add.descEl.createDiv({ cls: ERROR });
		// Checked as `ai-memory projects add` checks it (the folder there, one project per repository), in the save queue: `flush` waits for it.
		const addProject = async (): Promise<boolean> => {
			const typed = trimSlashes(pathInput?.value.trim() ?? "");
			if (!isAbsolute(typed)) {
				addError.setText("Enter an absolute path, for example /home/me/code/my-app.");
				return false;
			}
			const checked = await this.host.checkProject(typed, this.draft.projects).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
			if (generation !== this.generation) return false;
			if ("error" in checked) {
				addError.setText(`Not added: ${checked.error}.`);
				return false;
			}
			addError.setText("");
			const existing = this.draft.projects.find((p) => p.path === checked.path);
			if (existing) existing.enabled = true;
			else this.draft.projects.push({ path: checked.path, ...DEFAULT_PROJECT });
			if (pathInput) pathInput.value = "";
			this.renderProjects();
			return true;
		};

		this.host.discover().then(
			(found) => {
				if (generation !== this.generation) return;
				this.discovered = found;
				this.renderProjects();
			},
			(error: unknown) => {
				if (generation !== this.generation) return;
				this.discovered = [];
				this.renderProjects(`Could not list the projects in the transcripts: ${error instanceof Error ? error.message : String(error)}`);
			},
		);
	}

	private renderProjects(problem?: string): void {
		const el = this.projectsEl;
		if (!el) return;
		el.empty();
		if (problem) el.createDiv({ cls: ERROR, text: problem });
		const discovered = this.discovered ?? [];
		const seen = new Set(discovered.map((d) => d.path));
		const rows: { path: string; found?: DiscoveredProject }[] = [...discovered.map((d) => ({ path: d.path, found: d })), ...this.draft.projects.filter((p) => !seen.has(p.path)).map((p) => ({ path: p.path }))];
		if (rows.length === 0) {
			el.createDiv({ cls: "ai-memory-status", text: "No projects yet: they appear here after the first sync, or add one below." });
			return;
		}
		for (const row of rows) this.projectRow(el, row.path, row.found);
	}

	private projectRow(el: HTMLElement, path: string, found: DiscoveredProject | undefined): void {
		const configured = this.draft.projects.find((p) => p.path === path);
		const box = el.createDiv({ cls: "ai-memory-project" });
		box.dataset.path = path;
		const head = new Setting(box).setName(found?.name ?? baseName(path)).setDesc(projectSummary(path, found));
		head.addToggle((t) =>
			t.setValue(configured?.enabled ?? false).onChange((on) => {
				const project = this.draft.projects.find((p) => p.path === path);
				if (project) project.enabled = on;
				else if (on) this.draft.projects.push({ path, ...DEFAULT_PROJECT });
				this.save();
				this.renderProjects();
			}),
		);
		if (configured) {
			head.addButton((b) =>
				b
					.setButtonText("Remove")
					.onClick(() => {
						this.draft.projects = this.draft.projects.filter((p) => p.path !== path);
						this.save();
						this.renderProjects();
					}),
			);
		}
		if (!configured?.enabled) return;

		const options = box.createDiv({ cls: "ai-memory-project-options" });
		const project = configured;
		new Setting(options).setName("Write to").addDropdown((d) => {
			for (const [value, name] of Object.entries(TARGET_NAMES)) d.addOption(value, name);
			d.setValue(project.target).onChange((value) => this.now(() => (project.target = value as ContextTarget)));
		});
		for (const [file, agent] of [["AGENTS.md", "Codex"], ["GEMINI.md", "Gemini CLI"]] as const) {
			new Setting(options)
				.setName(`Also write to ${file}`)
				.setDesc(`The same block, for ${agent}. Written once when one file links to or imports the other.`)
				.addToggle((t) =>
					t.setValue(project.alsoWriteTo?.includes(file) ?? false).onChange((on) =>
						this.now(() => {
							const files = (project.alsoWriteTo ?? []).filter((f) => f !== file);
							if (on) files.push(file);
							if (files.length > 0) project.alsoWriteTo = files;
							else delete project.alsoWriteTo;
						}),
					),
				);
		}
		new Setting(options).setName("Mode").addDropdown((d) => {
			for (const [value, name] of Object.entries(MODE_NAMES)) d.addOption(value, name);
			d.setValue(project.mode).onChange((value) => this.now(() => (project.mode = value as ContextMode)));
		});
		this.numberField(options, `sessions:${path}`, {
			name: "Sessions in the summary",
			desc: "How many recent sessions it describes, from 1 to 50.",
			value: () => project.sessions,
			apply: (n) => (project.sessions = Math.round(n)),
			min: 1,
			max: 50,
		});
		this.numberField(options, `budget:${path}`, {
			name: "Token budget",
			desc: `The most the summary may take in eager mode, in tokens (about four characters each), from ${BUDGET_MIN} to ${BUDGET_MAX}.`,
			value: () => project.budget,
			apply: (n) => (project.budget = n),
			min: BUDGET_MIN,
			max: BUDGET_MAX,
		});
		new Setting(options)
			.setName("Share facts with Claude")
			.setDesc("Keep the project's facts in the vault and Claude's own memory of it in step.")
			.addToggle((t) => t.setValue(project.memorySharing).onChange((on) => this.now(() => (project.memorySharing = on))));
	}

	// -------------------------------------------------------------------------------------------

	/** A whole number within bounds; anything else shows what is expected and is not saved. */
	private numberField(el: HTMLElement, key: string, field: { name: string; desc: string; value: () => number; apply: (n: number) => void; min: number; max: number }): void {
		const setting = new Setting(el).setName(field.name).setDesc(field.desc);
		const error = setting.descEl.createDiv({ cls: ERROR });
		setting.addText((text) => {
			text.inputEl.type = "number";
			text.inputEl.min = String(field.min);
			text.inputEl.max = String(field.max);
			text.setValue(String(field.value()));
			text.onChange(() =>
				this.later(key, () => {
					const raw = text.getValue().trim();
					const n = Number(raw);
					if (raw === "" || !Number.isInteger(n) || n < field.min || n > field.max) {
						error.setText(`Enter a whole number from ${field.min} to ${field.max}.`);
						return false;
					}
					error.setText("");
					const before = field.value();
					field.apply(n);
					return field.value() !== before;
				}),
			);
		});
	}

	/** A text change: applied and saved once typing pauses (or the tab closes). */
	private later(key: string, apply: () => Promise<boolean> | boolean): void {
		this.pending.set(key, apply);
		if (this.timer !== undefined) window.clearTimeout(this.timer);
		this.timer = window.setTimeout(() => void this.run(false, true), TEXT_SAVE_DELAY_MS);
	}

	/**
	 * A field that says which sessions are read or what becomes of every note (the transcript
	 * folders, the notes and memory folders, the tag prefix, the extra redaction patterns, the
	 * excluded projects) is saved when the person leaves it (or presses Enter in a one-line field,
	 * or closes the tab), not at a pause in typing. Saved at each pause, what was half typed was in
	 * force for the syncs meanwhile: "Chats" moved every note to "C", "Ch" and "Cha" first;
	 * "ACME-[0-9]{6}" redacted every "A" of every note for good; "/home/me/old" dropped every
	 * project's stored sessions at "/"; "~/.claude-work" read the personal "~/.claude" into the
	 * vault. `then` runs once it is saved.
	 */
	private savedOnLeave(input: HTMLInputElement | HTMLTextAreaElement, key: string, then: () => void = () => undefined): void {
		this.onLeave.add(key);
		const leave = async () => {
			if (this.pending.has(key)) await this.flush();
			then();
		};
		input.addEventListener("blur", () => void leave());
		if (input instanceof HTMLInputElement)
			input.addEventListener("keydown", (event) => {
				if (event.key === "Enter") void leave();
			});
	}

	/** A change saved at once, with any text change still waiting. */
	private now(apply: () => unknown): void {
		apply();
		this.save();
	}

	private save(): void {
		void this.run(true);
	}
}

function projectSummary(path: string, found: DiscoveredProject | undefined): string {
	if (!found) return `${path} · not seen in the transcripts`;
	const sessions = `${found.sessions} ${found.sessions === 1 ? "session" : "sessions"}`;
	return found.lastActivity ? `${path} · ${sessions}, last ${localDate(found.lastActivity)}` : `${path} · ${sessions}`;
}

function localDate(iso: string): string {
	const d = new Date(iso);
	if (Number.isNaN(d.getTime())) return iso;
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function baseName(path: string): string {
	return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

function isAbsolute(path: string): boolean {
	return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** Without trailing separators (a root stays a root). */
function trimSlashes(path: string): string {
	const trimmed = path.replace(/[\\/]+$/, "");
	return trimmed === "" || /^[A-Za-z]:$/.test(trimmed) ? path.slice(0, trimmed.length + 1) : trimmed;
}
