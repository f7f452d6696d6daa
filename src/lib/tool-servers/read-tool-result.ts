// A tool's result (MCP CallToolResult) read as untrusted input: the parts the transcript shows,
// bounded as a whole, and the text the model is sent, bounded tighter. Nothing a server sends
// makes this throw: a malformed result or block becomes a note saying what was left out. A
// text of 50 MB costs what its kept part costs; the rest is counted, not read.
import { formatBytes } from '../hooks/plain-data';
import { describeValue, isPlainObject } from '../hooks/tool-schema';
import { jsonProblem } from './copy-json';
import { cutAt, leftOut, readPlainText } from './plain-text';
import { decodedBytes, readContentBlock } from './read-content-block';
import type { ResultPart, ToolResultView } from './types';

/** The most characters of text a result keeps for the transcript. */
export const STORED_RESULT_CHARS = 1_000_000;
/** The most characters of a result the model is sent, the note saying what was cut included. */
export const MODEL_RESULT_CHARS = 100_000;
/** The most parts a result shows, besides the notes on what was left out. */
export const MAX_RESULT_PARTS = 1000;
/** The most images a result shows. */
export const MAX_RESULT_IMAGES = 20;
/** The deepest structured content may nest. */
const MAX_STRUCTURED_DEPTH = 64;
/** Room kept at the end of the model's text for the note saying what was cut. */
const CUT_NOTE_ROOM = 200;

export function readToolResult(raw: unknown): ToolResultView {
	if (!isPlainObject(raw)) {
		const text = `The tool's result could not be read: it was ${describeValue(raw)}, not an object.`;
		return { isError: true, parts: [{ type: 'note', text }], forModel: text };
	}
	const reader = new ResultReader();
	const { content } = raw;
	if (Array.isArray(content)) for (const block of content) reader.addBlock(block);
	else if (content !== undefined) reader.add({ type: 'note', text: `The result's content could not be read: it was ${describeValue(content)}, not a list.` });
	// `toolResult`: what servers of the first protocol version sent instead of content.
	const structured = raw.structuredContent ?? (content === undefined ? raw.toolResult : undefined);
	if (structured !== undefined) reader.addStructured(structured);
	const parts = reader.finish();
	const isError = raw.isError === true;
	const forModel = modelText(parts, isError, reader.left);
	if (reader.left) {
		parts.push({
			type: 'note',
			text: `The result was cut for display: ${leftOut(reader.left, 'more character')} (a result keeps at most ${STORED_RESULT_CHARS.toLocaleString('en')}).`
		});
	}
	return { isError, parts, forModel };
}

class ResultReader {
	readonly parts: ResultPart[] = [];
	/** Characters of text left out for want of room. */
	left = 0;
	#room = STORED_RESULT_CHARS;
	#images = 0;
	#imagesLeft = 0;
	#partsLeft = 0;
	#unreadable = 0;
	#firstUnreadable = '';

	addBlock(block: unknown): void {
		// Counted before it is read, so parts never shown take no room from the text.
		if (this.parts.length >= MAX_RESULT_PARTS) {
			this.#partsLeft++;
			return;
		}
		const read = readContentBlock(block, (raw) => this.#take(raw));
		if (read === null) return;
		if ('unreadable' in read) {
			if (!this.#unreadable++) this.#firstUnreadable = read.unreadable;
			return;
		}
		if (read.type === 'image' && ++this.#images > MAX_RESULT_IMAGES) {
			this.#imagesLeft++;
			return;
		}
		this.add(read);
	}

	addStructured(value: unknown): void {
		const problem = jsonProblem(value, { maxChars: STORED_RESULT_CHARS, maxDepth: MAX_STRUCTURED_DEPTH });
		if (problem) return this.add({ type: 'note', text: `The structured result was left out: it ${problem}.` });
		const json = this.#take(JSON.stringify(value, null, 2));
		if (json !== null) this.add({ type: 'structured', json });
	}

	add(part: ResultPart): void {
		if (this.parts.length < MAX_RESULT_PARTS) this.parts.push(part);
		else this.#partsLeft++;
	}

	/** The parts, with notes on what was left out (the display cut's own note comes later). */
	finish(): ResultPart[] {
		const notes: string[] = [];
		if (this.#unreadable) {
			notes.push(`${leftOut(this.#unreadable, 'unreadable part')} (the first: ${this.#firstUnreadable}).`);
		}
		if (this.#imagesLeft) notes.push(`${leftOut(this.#imagesLeft, 'more image')}: a result shows at most ${MAX_RESULT_IMAGES}.`);
		if (this.#partsLeft) notes.push(`${leftOut(this.#partsLeft, 'more part')}: a result shows at most ${MAX_RESULT_PARTS.toLocaleString('en')}.`);
		return [...this.parts, ...notes.map((text): ResultPart => ({ type: 'note', text }))];
	}

	/** `raw` as plain text within the room left, or null when there was none. */
	#take(raw: string): string | null {
		if (this.#room <= 0) {
			this.left += raw.length;
			return null;
		}
		const { text, left } = readPlainText(raw, this.#room);
		this.#room -= text.length;
		this.left += left;
		return text;
	}
}

/** What the model is sent: the parts as text, said to be an error when the tool said so, cut to its bound. */
function modelText(parts: ResultPart[], isError: boolean, leftOfDisplay: number): string {
	const hasText = parts.some((part) => part.type === 'text');
	const body = parts
		.map((part) => modelPiece(part, hasText))
		.filter(Boolean)
		.join('\n\n');
	const text = isError ? `The tool reported an error: ${body || '(it gave no details)'}` : body || 'The tool returned nothing.';
	if (text.length <= MODEL_RESULT_CHARS && !leftOfDisplay) return text;
	const kept = cutAt(text, Math.min(text.length, MODEL_RESULT_CHARS - CUT_NOTE_ROOM));
	const left = text.length - kept.length + leftOfDisplay;
	return `${kept}\n\n[The result was cut here: ${leftOut(left, 'more character')}. The model is sent at most ${MODEL_RESULT_CHARS.toLocaleString('en')} characters of a tool's result.]`;
}

function modelPiece(part: ResultPart, hasText: boolean): string {
	switch (part.type) {
		case 'text':
			return part.text;
		case 'image':
			return `[image: ${part.mimeType}, ${formatBytes(decodedBytes(part.data))}]`;
		case 'resource_link':
			return `${part.name} <${part.uri}>`;
		case 'resource':
			return `[resource ${part.uri}${part.mimeType ? `, ${part.mimeType}` : ''}]\n${part.text}`;
		case 'structured':
			// Servers that return structured content also return it as text, which is then enough.
			return hasText ? '' : part.json;
		case 'note':
			return `[${part.text}]`;
	}
}
