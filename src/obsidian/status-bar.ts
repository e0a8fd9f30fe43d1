import { format } from "date-fns";

export type SyncStatus =
	| { state: "idle" }
	| { state: "syncing"; done?: number; total?: number }
	| { state: "synced"; at: Date; notes: number }
	| { state: "problem"; count: number };

/**
 * The status bar item: idle, syncing with progress, the last sync and what it wrote, or the
 * number of problems (a click shows them).
 */
export class StatusBar {
	constructor(
		private readonly el: HTMLElement,
		onClick: () => void,
	) {
		el.addClass("ai-memory-status", "mod-clickable");
		el.setAttribute("aria-label", "AI conversation memory: click for the sync log");
		el.addEventListener("click", onClick);
		this.show({ state: "idle" });
	}

	show(status: SyncStatus): void {
		this.el.toggleClass("is-error", status.state === "problem");
		this.el.setText(statusText(status));
	}
}

function statusText(status: SyncStatus): string {
	switch (status.state) {
		case "idle":
			return "AI memory: idle";
		case "syncing":
			return status.total ? `AI memory: syncing ${status.done ?? 0}/${status.total}` : "AI memory: syncing…";
		case "synced":
			return `AI memory: synced ${format(status.at, "HH:mm")}${status.notes > 0 ? ` · ${status.notes} note${status.notes === 1 ? "" : "s"}` : ""}`;
		case "problem":
			return `AI memory: ${status.count} problem${status.count === 1 ? "" : "s"}`;
	}
}
