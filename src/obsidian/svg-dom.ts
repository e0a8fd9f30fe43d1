import { num, type SvgNode } from "../core/charts/svg";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A chart's tree as DOM elements (no `innerHTML`). Its `<style>` stays out: inside the app the
 * plugin's styles.css holds the same rules, scoped to `.acm-chart`, with the theme's variables.
 */
export function svgElement(node: SvgNode, doc: Document = document): SVGElement {
	const el = doc.createElementNS(SVG_NS, node.tag);
	// Numbers as the file writes them (`serializeSvg`): `String` put "NaN" and "1e+21" in a bar's `y` and `width`.
	for (const [k, v] of node.attrs) el.setAttribute(k, typeof v === "number" ? num(v) : v);
	for (const child of node.children) {
		if (typeof child === "string") el.appendChild(doc.createTextNode(child));
		else if (child.tag !== "style") el.appendChild(svgElement(child, doc));
	}
	return el;
}
