// Text a tool server wrote (a description, a result), made fit to show as text and bounded. A
// control character is invisible or rings a bell, and a bidi override (U+202E) turns the words
// after it backwards, so both go; tabs and line breaks stay. Only as much of a long text is read
// as can be kept: the rest is counted, never scanned, so 50 MB costs what the bound costs.

// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Characters read at least at a time, so a long run of control characters is not read one by one. */
const CHUNK = 4096;

export interface ReadText {
	text: string;
	/** Characters of the original after the cut (counted before cleaning). */
	left: number;
}

/** `raw` without control characters, cut to at most `max` characters (never inside a surrogate pair). */
export function readPlainText(raw: string, max: number): ReadText {
	let text = '';
	let read = 0;
	while (text.length <= max && read < raw.length) {
		const end = Math.min(raw.length, read + Math.max(CHUNK, max + 1 - text.length));
		text += raw.slice(read, end).replace(CONTROLS, '');
		read = end;
	}
	if (text.length <= max) return { text, left: 0 };
	const kept = cutAt(text, max);
	return { text: kept, left: text.length - kept.length + raw.length - read };
}

/** `raw` as plain text of at most `max` characters, ending in "…" where it was cut. */
export function boundedText(raw: string, max: number): string {
	const { text, left } = readPlainText(raw, max);
	return left ? `${cutAt(text, max - 1)}…` : text;
}

/** The first `length` characters of `text`, one fewer where that would split a surrogate pair. */
export function cutAt(text: string, length: number): string {
	if (length >= text.length) return text;
	const last = text.charCodeAt(length - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** "1 tool", "1,200 tools": a count for a note. */
export function countOf(n: number, noun: string): string {
	return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

/** "1 tool was left out", "3 more tools were left out": the start of a note. */
export function leftOut(n: number, noun: string): string {
	return `${countOf(n, noun)} ${n === 1 ? 'was' : 'were'} left out`;
}
