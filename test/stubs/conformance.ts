/**
 * The stub kept faithful to Obsidian's real type definitions, checked by the compiler
 * (`npx tsc --noEmit -p .`; this file has no runtime and no test imports it).
 *
 * Here `obsidian` is the real package's types (tsconfig resolves it to node_modules/obsidian;
 * only vitest aliases it to the stub, at run time). The rule, for every class and function the
 * stub exports: read the real declaration with the stub's classes standing in for the real ones
 * (a real `TFile` is the stub's `TFile`, a `Setting` method returning `this` returns the stub's
 * `Setting`, a callback given a `TextComponent` is given the stub's), and each member the stub
 * has must be assignable to the real member, every overload of it, with strict function
 * variance: the stub accepts every argument the real API accepts and returns what the real API
 * promises. So code that compiles against the real API gets, at run time under the stub, what it
 * was typed for. Constructors are checked the same way.
 *
 * Members only the stub has are test helpers; each class lists them below (`StubOnly`), and a new
 * one that is not listed fails the check. A few members are deliberately partial and listed as
 * `Partial` with the reason; a listed one that starts to conform fails too, so the lists stay true.
 */
import type * as Real from "obsidian";
import type * as Stub from "./obsidian";

// ---------------------------------------------------------------------------------------------
// Substitution: a real type as the stub provides it.

/** The context an editor command is given; the stub gives `{ file }`. */
type StubEditorContext = Parameters<NonNullable<Stub.Command["editorCallback"]>>[1];

/** Kept as they are: values, and the DOM, which the stub shares with the app. */
type Kept = string | number | boolean | bigint | symbol | null | undefined | void | Node | Event | EventTarget;

/** `T` with each real class the stub implements replaced by the stub's, through functions, promises, arrays and unions. */
type ToStub<T> = 0 extends 1 & T
	? T
	: T extends Kept
		? T
		: [T] extends [Real.EventRef] // EventRef is an empty interface: match it exactly, not everything
			? [Real.EventRef] extends [T]
				? [keyof T] extends [never]
					? Stub.EventRef
					: Substituted<T>
				: Substituted<T>
			: Substituted<T>;

/**
 * The real classes the stub implements, most specific first (matching is by shape: a `Plugin` is
 * also a `Component`, a `Workspace` also `Events`).
 */
type Implemented = [
	[Real.App, Stub.App],
	[Real.Vault, Stub.Vault],
	[Real.Workspace, Stub.Workspace],
	[Real.WorkspaceLeaf, Stub.WorkspaceLeaf],
	[Real.MetadataCache, Stub.MetadataCache],
	[Real.FileManager, Stub.FileManager],
	[Real.FileSystemAdapter, Stub.FileSystemAdapter],
	[Real.TFile, Stub.TFile],
	[Real.TFolder, Stub.TFolder],
	[Real.TAbstractFile, Stub.TAbstractFile],
	[Real.Plugin, Stub.Plugin],
	[Real.PluginSettingTab, Stub.PluginSettingTab],
	[Real.Modal, Stub.Modal],
	[Real.Setting, Stub.Setting],
	[Real.Notice, Stub.Notice],
	[Real.TextComponent, Stub.TextComponent],
	[Real.TextAreaComponent, Stub.TextAreaComponent],
	[Real.DropdownComponent, Stub.DropdownComponent],
	[Real.ToggleComponent, Stub.ToggleComponent],
	[Real.ExtraButtonComponent, Stub.ExtraButtonComponent],
	[Real.ButtonComponent, Stub.ButtonComponent],
	[Real.ValueComponent<string>, Stub.ValueComponent<string>],
	[Real.ValueComponent<boolean>, Stub.ValueComponent<boolean>],
	[Real.BaseComponent, Stub.BaseComponent],
	[Real.MarkdownFileInfo, StubEditorContext],
	// After MarkdownFileInfo: a MarkdownView is both, and an editor command is given the stub's context.
	[Real.ItemView, Stub.ItemView],
	[Real.View, Stub.View],
	[Real.Editor, Stub.Editor],
	[Real.Events, Stub.Events],
	[Real.Component, Stub.Component],
];

type Substituted<T, Pairs = Implemented> = Pairs extends [[infer R, infer S], ...infer Rest] ? (T extends R ? S : Substituted<T, Rest>) : Structural<T>;

/** Through functions (every parameter and the result), promises and arrays; a command's members. */
type Structural<T> = T extends Promise<infer V>
	? Promise<ToStub<V>>
	: T extends readonly (infer E)[]
		? ToStub<E>[]
		: T extends (...args: infer A) => infer R
			? (...args: { [I in keyof A]: ToStub<A[I]> }) => ToStub<R>
			: T extends Real.Command // by shape both ways: an <input> has an `id` and a `name` too
				? Real.Command extends T
					? { [K in keyof T]: ToStub<T[K]> }
					: T
				: T;

// ---------------------------------------------------------------------------------------------
// The check.

type AnyFunction = (...args: never[]) => unknown;

/**
 * Every signature of an overloaded function, as a union (one for a plain function; a function
 * with fewer than 16 overloads repeats one, harmless in a union). `Workspace.on` has 16.
 */
type Overloads<F> = F extends { (...a: infer A1): infer R1; (...a: infer A2): infer R2; (...a: infer A3): infer R3; (...a: infer A4): infer R4; (...a: infer A5): infer R5; (...a: infer A6): infer R6; (...a: infer A7): infer R7; (...a: infer A8): infer R8; (...a: infer A9): infer R9; (...a: infer A10): infer R10; (...a: infer A11): infer R11; (...a: infer A12): infer R12; (...a: infer A13): infer R13; (...a: infer A14): infer R14; (...a: infer A15): infer R15; (...a: infer A16): infer R16 }
	? ((...a: A1) => R1) | ((...a: A2) => R2) | ((...a: A3) => R3) | ((...a: A4) => R4) | ((...a: A5) => R5) | ((...a: A6) => R6) | ((...a: A7) => R7) | ((...a: A8) => R8) | ((...a: A9) => R9) | ((...a: A10) => R10) | ((...a: A11) => R11) | ((...a: A12) => R12) | ((...a: A13) => R13) | ((...a: A14) => R14) | ((...a: A15) => R15) | ((...a: A16) => R16)
	: never;

/** The real overloads the stub's member does not satisfy (never when it does). */
type FailingOverloads<S, O> = O extends unknown ? ([S] extends [ToStub<O>] ? never : O) : never;

type MemberOk<S, R> = [R] extends [AnyFunction] ? ([FailingOverloads<S, Overloads<R>>] extends [never] ? true : false) : [S] extends [ToStub<R>] ? true : false;

/** The names of the stub's members that do not conform to the real ones. */
type Mismatches<S, R> = { [K in keyof S & keyof R]: MemberOk<S[K], R[K]> extends true ? never : K }[keyof S & keyof R];

/** The real constructor's arguments, as the stub gets them, must be accepted by the stub's. */
type ConstructorConforms<S extends abstract new (...args: never[]) => unknown, R extends abstract new (...args: never[]) => unknown> = [(...args: ConstructorParameters<S>) => void] extends [ToStub<(...args: ConstructorParameters<R>) => void>] ? true : false;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

/**
 * A class conforms: its members but the listed partial ones, and its constructor; its members
 * absent from the real class are exactly the listed test helpers.
 */
type Conforms<
	S,
	R,
	StubOnly extends PropertyKey = never,
	Partial extends PropertyKey = never,
> = Equal<Mismatches<S, R>, Partial> extends true ? (Equal<Exclude<keyof S, keyof R>, StubOnly> extends true ? true : { stubOnly: Exclude<keyof S, keyof R> }) : { mismatches: Mismatches<S, R> };

// ---------------------------------------------------------------------------------------------
// The stub, export by export.

/** Every value the stub exports is checked below: a new export must be added here. */
type Checked =
	| "Component"
	| "Notice"
	| "TAbstractFile"
	| "TFile"
	| "TFolder"
	| "FileSystemAdapter"
	| "Vault"
	| "FileManager"
	| "MetadataCache"
	| "Events"
	| "Workspace"
	| "Plugin"
	| "PluginSettingTab"
	| "normalizePath"
	| "BaseComponent"
	| "ValueComponent"
	| "TextComponent"
	| "TextAreaComponent"
	| "DropdownComponent"
	| "ToggleComponent"
	| "ButtonComponent"
	| "ExtraButtonComponent"
	| "Setting"
	| "Modal"
	| "WorkspaceLeaf"
	| "View"
	| "ItemView";

export type Checks = [
	Expect<Equal<Exclude<keyof typeof Stub, Checked>, never>>,

	Expect<Conforms<Stub.Component, Real.Component>>,
	Expect<ConstructorConforms<typeof Stub.Component, typeof Real.Component>>,
	Expect<Conforms<Stub.Events, Real.Events, /* test-only: handlers attached */ "listenerCount">>,
	Expect<ConstructorConforms<typeof Stub.Events, typeof Real.Events>>,
	Expect<Conforms<Stub.Notice, Real.Notice, /* test-only: the text shown */ "message">>,
	Expect<ConstructorConforms<typeof Stub.Notice, typeof Real.Notice>>,

	Expect<Conforms<Stub.TAbstractFile, Real.TAbstractFile>>,
	Expect<Conforms<Stub.TFile, Real.TFile>>,
	Expect<Conforms<Stub.TFolder, Real.TFolder>>,
	Expect<Conforms<Stub.FileSystemAdapter, Real.FileSystemAdapter>>,
	// Partial: the stub's adapters carry only `getBasePath` (a desktop vault) or nothing (another
	// platform); the plugin reads nothing else through `adapter`.
	Expect<Conforms<Stub.Vault, Real.Vault, /* test-only: a note's text without awaiting; handlers attached; a file gone unheard */ "cachedText" | "listenerCount" | "goneWhileClosed", "adapter">>,
	Expect<Conforms<Stub.FileManager, Real.FileManager>>,
	Expect<Conforms<Stub.MetadataCache, Real.MetadataCache>>,
	Expect<Conforms<Stub.Workspace, Real.Workspace, /* test-only: the layout becomes ready; the open file; files opened */ "ready" | "listenerCount" | "activeFile" | "opened" | "openedSubpaths" | "app" | "viewCreators" | "leaves" | "openedLinks">>,
	Expect<Conforms<Stub.WorkspaceLeaf, Real.WorkspaceLeaf, /* test-only: the workspace it belongs to */ "workspace">>,
	// `open`/`close`: the app's own lifecycle around onOpen/onClose, which tests drive.
	Expect<Conforms<Stub.View, Real.View, "open" | "close">>,
	Expect<ConstructorConforms<typeof Stub.View, typeof Real.View>>,
	Expect<Conforms<Stub.ItemView, Real.ItemView, "open" | "close">>,
	Expect<ConstructorConforms<typeof Stub.ItemView, typeof Real.ItemView>>,
	Expect<Conforms<Stub.App, Real.App>>,

	Expect<Conforms<Stub.Plugin, Real.Plugin, /* test-only: what the plugin registered */ "commands" | "statusBarItems" | "ribbonIcons" | "settingTabs" | "intervals" | "data">>,
	Expect<ConstructorConforms<typeof Stub.Plugin, typeof Real.Plugin>>,
	// `plugin`: the app keeps it on the tab too, but does not declare it; subclasses declare their own.
	Expect<Conforms<Stub.PluginSettingTab, Real.PluginSettingTab, "plugin">>,
	Expect<ConstructorConforms<typeof Stub.PluginSettingTab, typeof Real.PluginSettingTab>>,
	Expect<Equal<[typeof Stub.normalizePath] extends [typeof Real.normalizePath] ? true : false, true>>,

	Expect<Conforms<Stub.BaseComponent, Real.BaseComponent>>,
	Expect<Conforms<Stub.ValueComponent<string>, Real.ValueComponent<string>>>,
	Expect<Conforms<Stub.TextComponent, Real.TextComponent>>,
	Expect<ConstructorConforms<typeof Stub.TextComponent, typeof Real.TextComponent>>,
	Expect<Conforms<Stub.TextAreaComponent, Real.TextAreaComponent>>,
	Expect<ConstructorConforms<typeof Stub.TextAreaComponent, typeof Real.TextAreaComponent>>,
	Expect<Conforms<Stub.DropdownComponent, Real.DropdownComponent>>,
	Expect<ConstructorConforms<typeof Stub.DropdownComponent, typeof Real.DropdownComponent>>,
	Expect<Conforms<Stub.ToggleComponent, Real.ToggleComponent>>,
	Expect<ConstructorConforms<typeof Stub.ToggleComponent, typeof Real.ToggleComponent>>,
	Expect<Conforms<Stub.ButtonComponent, Real.ButtonComponent>>,
	Expect<ConstructorConforms<typeof Stub.ButtonComponent, typeof Real.ButtonComponent>>,
	Expect<Conforms<Stub.ExtraButtonComponent, Real.ExtraButtonComponent>>,
	Expect<ConstructorConforms<typeof Stub.ExtraButtonComponent, typeof Real.ExtraButtonComponent>>,
	Expect<Conforms<Stub.Setting, Real.Setting, /* test-only: rendered DOM is read through settingEl */ never>>,
	Expect<ConstructorConforms<typeof Stub.Setting, typeof Real.Setting>>,
	Expect<Conforms<Stub.Modal, Real.Modal>>,
	Expect<ConstructorConforms<typeof Stub.Modal, typeof Real.Modal>>,

	// Data the plugin hands to the app, and what the app hands back.
	Expect<Equal<[ToStub<Real.Command>] extends [Stub.Command] ? true : false, true>>,
	Expect<Conforms<Stub.Command, Real.Command>>,
	Expect<Equal<[Real.PluginManifest] extends [Stub.PluginManifest] ? true : false, true>>,
	Expect<Conforms<Stub.PluginManifest, Real.PluginManifest>>,
	Expect<Conforms<Stub.Editor, Real.Editor>>,
];
