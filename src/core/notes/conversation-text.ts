/**
 * A conversation section as text, or as its UTF-8 bytes: a fold worker hands its buffer over
 * (`fold-worker.ts`), so the calling thread holds most of a first sync's note text outside its
 * heap until each note is written, where every young-generation collection that met them copied
 * them (measured on the bench tree's first sync: that heap's peak 110 → 88 MiB). Bytes are the
 * encoding of a `printable` text, so a new note is written with them as they are (`SessionNoteText`).
 */
export type ConversationText = string | Uint8Array;

const utf8 = new TextDecoder();

/** The text of a conversation section, decoded when it came as bytes. */
export function conversationText(conversation: ConversationText | undefined): string | undefined {
	return conversation === undefined || typeof conversation === "string" ? conversation : utf8.decode(conversation);
}
