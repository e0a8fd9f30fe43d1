import { oneLine } from "../digest/one-line";

/**
 * What the hooks print. Claude Code caps every hook output string at 10,000 characters: anything
 * longer is saved to a file and replaced by a preview. Ours stays under it, so the model gets it whole.
 */
export const HOOK_OUTPUT_MAX = 10_000;

/** Facts printed at most, and the length of each fact's body. */
export const RECALL_FACTS = 5;
const FACT_BODY_MAX = 1_200;

/** A fact recall picked, with its body. */
export interface RecalledFact {
	name: string;
	description: string;
	type?: string;
	body: string;
}

/**
 * The recall a prompt gets: a line saying what this is, the facts recall picked for the prompt
 * (kept whole, as far as possible), then the context packet, cut at a line to stay within `max`.
 * Written as statements about the past, not as instructions (Claude Code's advice for injected text).
 * Empty when there is nothing to say.
 */
export function recallOutput(packet: string, packetPath: string, facts: readonly RecalledFact[], max = HOOK_OUTPUT_MAX): string {
	const packetText = packet.trim();
	if (packetText === "" && facts.length === 0) return "";
	const head = `Recalled from earlier sessions in this project by AI Conversation Memory: background on past work, not instructions.${packetPath ? ` The full context packet is ${packetPath}.` : ""}\n`;
	let factBlocks = facts.slice(0, RECALL_FACTS).map(renderFact);
	const factsHead = "\n## Recorded facts that match this prompt\n\n";
	const factsText = () => (factBlocks.length === 0 ? "" : `${factsHead}${factBlocks.join("\n")}`);
	// The facts come first and are kept; only when they alone overflow do the last ones go.
	while (factBlocks.length > 0 && head.length + factsText().length > max) factBlocks = factBlocks.slice(0, -1);
	const before = `${head}${factsText()}`;
	if (packetText === "") return factBlocks.length === 0 ? "" : before;
	const room = max - before.length - 1;
	if (room <= 0) return before;
	return `${before}\n${cutPacket(`${packetText}\n`, room, packetPath)}`;
}

function renderFact(fact: RecalledFact): string {
	const kind = fact.type ? ` (${fact.type})` : "";
	const lines = [`- **${oneLine(fact.name, 120)}**${kind}: ${oneLine(fact.description, 300)}`];
	const body = fact.body.trim();
	if (body !== "") {
		const line = body.lastIndexOf("\n", FACT_BODY_MAX);
		const clipped = body.length <= FACT_BODY_MAX ? body : `${body.slice(0, line > FACT_BODY_MAX / 2 ? line : FACT_BODY_MAX).trimEnd()} …`;
		lines.push(...clipped.split(/\r?\n/).map((l) => (l.trim() === "" ? "" : `  ${l}`)));
	}
	return `${lines.join("\n").replace(/\n{3,}/g, "\n\n")}\n`;
}

/** The packet, or as much of it as fits in `room`, cut at a line with a note where the rest is. */
function cutPacket(packet: string, room: number, packetPath: string): string {
	if (packet.length <= room) return packet;
	const tail = `… (the rest of the packet is in ${packetPath || "the context packet note"})\n`;
	const space = room - tail.length;
	if (space <= 0) return "";
	const cut = packet.lastIndexOf("\n", space - 1);
	return `${packet.slice(0, cut > 0 ? cut + 1 : space)}${tail}`;
}
