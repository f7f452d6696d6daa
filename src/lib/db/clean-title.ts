// What a session title may hold: text, never control characters. A title comes from the user
// (Rename, /title, /new), from a first message or from an imported file, and is shown in the
// sidebar, the header and confirmations, where a control character is invisible or rings a bell
// and a bidi override (U+202E) turns the words after it backwards. Letters of every script,
// right-to-left ones included, stay. Pure.

/** Line and paragraph breaks and tabs: a title is one line, so each run of them becomes a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/**
 * The C0 controls, DEL, the C1 controls, and the bidi controls that change the direction of
 * what follows them: embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with breaks turned into spaces and every other control character left out. */
export function cleanTitle(text: string): string {
	return text.replace(BREAKS, ' ').replace(CONTROLS, '');
}
