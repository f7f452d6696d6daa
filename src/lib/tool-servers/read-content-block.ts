// One content block of a tool's result, read as untrusted input into a part the transcript can
// show as it is: text and embedded text resources (their text bounded by the result's budget),
// images of the four types every browser and provider takes, and links the user may follow
// (http and https only; the app itself never fetches them). Anything else becomes a note saying
// what was left out and why, or is counted as unreadable.
import { formatBytes } from '../hooks/plain-data';
import { describeValue, isPlainObject } from '../hooks/tool-schema';
import { decodedBytes, IMAGE_TYPES, isBase64, MAX_IMAGE_BYTES } from '../hooks/image-bytes';
import { boundedText } from './plain-text';

export { decodedBytes, IMAGE_TYPES, MAX_IMAGE_BYTES };
import type { ResultPart } from './types';

/** The longest link address kept. */
export const MAX_URI_CHARS = 2048;
/** The longest link name or description kept. */
const MAX_LINK_TEXT_CHARS = 2000;
/** How much of a server's type or address a note quotes. */
const LABEL_CHARS = 120;

/** Hands out the result's remaining room for text: `raw` bounded, or null when no room is left. */
export type TakeText = (raw: string) => string | null;

/** A part; null when the block's text found no room; or why the block could not be read. */
export type BlockRead = ResultPart | null | { unreadable: string };

export function readContentBlock(block: unknown, take: TakeText): BlockRead {
	if (!isPlainObject(block)) return { unreadable: `a part that was ${describeValue(block)}` };
	switch (block.type) {
		case 'text': {
			if (typeof block.text !== 'string') return { unreadable: 'a text part without text' };
			const text = take(block.text);
			return text === null ? null : { type: 'text', text };
		}
		case 'image':
			return readImage(block);
		case 'audio':
			return note(`A sound (${label(block.mimeType)}${sizeOf(block.data)}) was left out: sound is not played here.`);
		case 'resource_link':
			return readLink(block);
		case 'resource':
			return readResource(block, take);
		default:
			return { unreadable: `a part of type ${typeof block.type === 'string' ? `"${label(block.type)}"` : describeValue(block.type)}` };
	}
}

function readImage(block: Record<string, unknown>): BlockRead {
	const { data } = block;
	if (typeof data !== 'string' || typeof block.mimeType !== 'string') return { unreadable: 'an image part without its data or type' };
	const mimeType = block.mimeType.trim().toLowerCase();
	if (!IMAGE_TYPES.has(mimeType)) return note(`An image (${label(block.mimeType)}) was left out: only PNG, JPEG, GIF and WebP images are shown.`);
	// The size is known from the length alone, before a 50 MB string is scanned.
	const bytes = decodedBytes(data);
	if (bytes > MAX_IMAGE_BYTES) {
		return note(`An image (${mimeType}, ${formatBytes(bytes)}) was left out: an image may be at most ${formatBytes(MAX_IMAGE_BYTES)}.`);
	}
	if (!data || !isBase64(data)) return note(`An image (${mimeType}) was left out: its data is not valid base64.`);
	return { type: 'image', mimeType, data };
}

function readLink(block: Record<string, unknown>): BlockRead {
	const { uri, name, title, description } = block;
	if (typeof uri !== 'string') return { unreadable: 'a link without an address' };
	if (uri.length > MAX_URI_CHARS) return note(`A link was left out: its address is over ${MAX_URI_CHARS.toLocaleString('en')} characters.`);
	const href = httpUrl(uri);
	if (!href) return note(`A link to ${label(uri)} was left out: only http and https links are shown.`);
	const shownName = [name, title].find((text): text is string => typeof text === 'string' && text.trim() !== '');
	const about = typeof description === 'string' ? boundedText(description, MAX_LINK_TEXT_CHARS) : '';
	const part: ResultPart = { type: 'resource_link', uri: href, name: shownName ? boundedText(shownName, MAX_LINK_TEXT_CHARS) : href };
	return about ? { ...part, description: about } : part;
}

function readResource(block: Record<string, unknown>, take: TakeText): BlockRead {
	const { resource } = block;
	if (!isPlainObject(resource) || typeof resource.uri !== 'string') return { unreadable: 'an embedded resource without an address' };
	const uri = boundedText(resource.uri, MAX_URI_CHARS);
	const mimeType = typeof resource.mimeType === 'string' ? boundedText(resource.mimeType, LABEL_CHARS) : '';
	if (typeof resource.text === 'string') {
		const text = take(resource.text);
		if (text === null) return null;
		return mimeType ? { type: 'resource', uri, mimeType, text } : { type: 'resource', uri, text };
	}
	if (typeof resource.blob === 'string') {
		return note(`An embedded file (${label(resource.uri)}${mimeType ? `, ${mimeType}` : ''}${sizeOf(resource.blob)}) was left out: only text is shown.`);
	}
	return { unreadable: 'an embedded resource without text or data' };
}

/** The address as the browser reads it, if it is an http or https one. */
function httpUrl(uri: string): string | null {
	try {
		const url = new URL(uri);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
	} catch {
		return null;
	}
}

function sizeOf(data: unknown): string {
	return typeof data === 'string' ? `, ${formatBytes(decodedBytes(data))}` : '';
}

/** A server's type or address, quoted in a note as plain text. */
function label(text: unknown): string {
	return typeof text === 'string' && text ? boundedText(text, LABEL_CHARS) : 'type unknown';
}

function note(text: string): ResultPart {
	return { type: 'note', text };
}
