/**
 * A list that keeps only the rows in sight (and a few around them) in the DOM, each the same
 * height, so 10,000 sessions scroll as smoothly as 10. One row is selected; the keyboard moves it.
 */
export class VirtualList<T> {
	readonly scroller: HTMLElement;
	private readonly spacer: HTMLElement;
	private items: readonly T[] = [];
	private selectedIndex = 0;
	private frame: number | undefined;

	constructor(
		parent: HTMLElement,
		private readonly rowHeight: number,
		private readonly renderRow: (el: HTMLElement, item: T, index: number) => void,
		private readonly onChoose: (item: T) => void,
	) {
		this.scroller = parent.createDiv({ cls: "acm-sessions-list", attr: { role: "listbox", tabindex: "0" } });
		this.spacer = this.scroller.createDiv({ cls: "acm-sessions-spacer" });
		this.scroller.addEventListener("scroll", () => this.schedule());
	}

	get length(): number {
		return this.items.length;
	}

	get selected(): T | undefined {
		return this.items[this.selectedIndex];
	}

	get selection(): number {
		return this.selectedIndex;
	}

	setItems(items: readonly T[]): void {
		this.items = items;
		this.selectedIndex = Math.min(this.selectedIndex, Math.max(0, items.length - 1));
		this.spacer.setCssProps({ "--acm-list-height": `${items.length * this.rowHeight}px` });
		this.render();
	}

	/** Moves the selection by `delta` rows (clamped) or to `to`, and scrolls it into sight. */
	select(to: number): void {
		if (this.items.length === 0) return;
		this.selectedIndex = Math.max(0, Math.min(this.items.length - 1, to));
		const top = this.selectedIndex * this.rowHeight;
		const view = this.viewport();
		if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
		else if (top + this.rowHeight > this.scroller.scrollTop + view) this.scroller.scrollTop = top + this.rowHeight - view;
		this.render();
	}

	/** Rows a page holds, for Page Up and Page Down. */
	pageSize(): number {
		return Math.max(1, Math.floor(this.viewport() / this.rowHeight) - 1);
	}

	/** What the list does with the keys a list takes; true when it took the key. */
	handleKey(evt: KeyboardEvent): boolean {
		switch (evt.key) {
			case "ArrowDown":
				this.select(this.selectedIndex + 1);
				return true;
			case "ArrowUp":
				this.select(this.selectedIndex - 1);
				return true;
			case "PageDown":
				this.select(this.selectedIndex + this.pageSize());
				return true;
			case "PageUp":
				this.select(this.selectedIndex - this.pageSize());
				return true;
			case "Home":
				this.select(0);
				return true;
			case "End":
				this.select(this.items.length - 1);
				return true;
			case "Enter": {
				const item = this.selected;
				if (item !== undefined) this.onChoose(item);
				return item !== undefined;
			}
			default:
				return false;
		}
	}

	/** The rows in sight, drawn again (a scroll asks once per frame). */
	render(): void {
		const view = this.viewport();
		const first = Math.max(0, Math.floor(this.scroller.scrollTop / this.rowHeight) - OVERSCAN);
		const last = Math.min(this.items.length, Math.ceil((this.scroller.scrollTop + view) / this.rowHeight) + OVERSCAN);
		this.spacer.empty();
		for (let i = first; i < last; i++) {
			const item = this.items[i]!;
			const row = this.spacer.createDiv({ cls: "acm-session-row", attr: { role: "option", "aria-selected": String(i === this.selectedIndex), "data-index": String(i) } });
			row.toggleClass("is-selected", i === this.selectedIndex);
			row.setCssProps({ "--acm-row-top": `${i * this.rowHeight}px` });
			row.addEventListener("click", () => {
				this.selectedIndex = i;
				this.onChoose(item);
			});
			this.renderRow(row, item, i);
		}
	}

	close(): void {
		if (this.frame !== undefined) window.cancelAnimationFrame(this.frame);
		this.frame = undefined;
	}

	private schedule(): void {
		if (this.frame !== undefined) return;
		this.frame = window.requestAnimationFrame(() => {
			this.frame = undefined;
			this.render();
		});
	}

	/** The visible height; a list not laid out yet (hidden, or a test's DOM) counts as a screenful. */
	private viewport(): number {
		return this.scroller.clientHeight > 0 ? this.scroller.clientHeight : 800;
	}
}

const OVERSCAN = 6;
