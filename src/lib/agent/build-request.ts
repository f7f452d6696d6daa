// Turns stored rows into the provider-neutral messages of one request. Pure.
import { contextRows } from '../db/context-rows';
import type { Attachment, MessageRow } from '../db/schema';
import { imageNotes } from '../context/context-rows';
import { sentBy } from '../providers/native-family';
import type { ChatFile, ChatImage, ChatMessage } from '../providers/types';
import { PDF_TYPE } from '../attachments/pdf-type';

/** The images and files of a request's rows, by id, their bytes as base64. */
export type RequestImages = ReadonlyMap<string, ChatImage>;
const NO_IMAGES: RequestImages = new Map();

export const DEFAULT_SYSTEM_PROMPT =
	'You are a helpful assistant. Answer in Markdown when formatting helps.';


function toChatMessage(row: MessageRow, provider: string | undefined, images: RequestImages): ChatMessage {
	const message: ChatMessage = { role: row.role, content: row.content };
	if (row.tool_calls?.length) message.tool_calls = row.tool_calls;
	if (row.tool_call_id) message.tool_call_id = row.tool_call_id;
	// Images compaction stopped sending go as a one-line note each; their Blobs stay for the transcript.
	const pruned = row.images_pruned === true;
	// A tool result's images, those whose bytes were read (see request-images.ts).
	const shown = pruned ? [] : (row.tool_result?.parts.flatMap((part) => (part.type === 'image' && images.has(part.id) ? [images.get(part.id)!] : [])) ?? []);
	if (shown.length) message.images = shown;
	const attached = pruned ? row.attachments?.filter((attachment) => attachment.type !== 'image') : row.attachments;
	if (attached?.length) attach(message, attached, images);
	const notes = imageNotes(row);
	if (notes.length) message.content = [message.content, ...notes].join('\n');
	// Only the provider entry that returned an item may get it back; the adapter then checks
	// the wire and the model family. Anything else gets the text.
	if (row.native && sentBy(row.native, provider)) message.native = row.native;
	return message;
}

/** A user's attachments on the message: its images' bytes, its files' text (a note where the bytes are gone), its PDFs' text and bytes. */
function attach(message: ChatMessage, attachments: readonly Attachment[], blobs: RequestImages): void {
	const images: ChatImage[] = [];
	const files: ChatFile[] = [];
	for (const attachment of attachments) {
		const bytes = blobs.get(attachment.id);
		if (attachment.type === 'image') {
			if (bytes) images.push(bytes);
		} else if (attachment.mimeType === PDF_TYPE) {
			// Its text was read when it was attached; the bytes go where the provider reads PDFs.
			files.push({ name: attachment.name, text: attachment.text ?? '', ...(bytes ? { pdf: bytes.data } : {}) });
		} else {
			files.push({ name: attachment.name, text: bytes ? textOf(bytes.data) : '(This file is no longer stored.)' });
		}
	}
	if (images.length) message.images = images;
	if (files.length) message.files = files;
}

const utf8 = new TextDecoder();
/** Base64 of UTF-8 text (checked when the file was attached or imported) to its text. */
const textOf = (base64: string) => utf8.decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));

/** The outgoing copy of a user message: plugin context is appended here, never stored. */
function withInjectedContext(content: string, injected: string): string {
	return injected ? `${content}\n\n${injected}` : content;
}

const INTERRUPTED_TOOL_RESULT = 'Tool call interrupted: no result was recorded.';

/**
 * Providers reject an assistant tool call without its result. A call left unanswered (a reload
 * or Stop while tools ran) gets a stub result, so the session stays usable.
 */
function closeToolCalls(messages: ChatMessage[]): ChatMessage[] {
	return messages.flatMap((message, index) => {
		if (!message.tool_calls?.length) return [message];
		// Only the tool messages right after this one answer it: ids may repeat across turns.
		const answered = new Set<string | undefined>();
		for (let next = index + 1; messages[next]?.role === 'tool'; next++) answered.add(messages[next].tool_call_id);
		const open = message.tool_calls.filter((call) => !answered.has(call.id));
		return [message, ...open.map((call) => ({ role: 'tool' as const, content: INTERRUPTED_TOOL_RESULT, tool_call_id: call.id }))];
	});
}

/**
 * Providers also reject a tool result whose call is not in the assistant message right before
 * it. Compaction never cuts a call from its results, but a history written by an older version
 * or another client might: such results are dropped rather than sent.
 */
function dropOrphanResults(messages: ChatMessage[]): ChatMessage[] {
	let open = new Set<string>();
	return messages.filter((message) => {
		if (message.role === 'tool') return open.has(message.tool_call_id ?? '');
		open = new Set((message.tool_calls ?? []).map((call) => call.id));
		return true;
	});
}

/** How many of the user's messages a context row stands for: itself, or what a summary folded. */
export function userMessagesIn(row: MessageRow): number {
	if (row.kind === 'summary') return row.compaction?.user_messages_folded ?? 0;
	return row.role === 'user' && row.kind === 'message' ? 1 : 0;
}

/**
 * Which of the session's user messages the one at `userSeq` is, over its whole history: those
 * still in the context before it, and those its summaries stand for.
 */
export function userMessageNumber(rows: readonly MessageRow[], userSeq: number): number {
	return contextRows(rows.filter((row) => row.seq <= userSeq) as MessageRow[]).reduce((sum, row) => sum + userMessagesIn(row), 0);
}

export function buildRequestMessages(options: {
	systemPrompt: string;
	rows: MessageRow[];
	/** seq of the current user message, whose outgoing copy carries `injected`. */
	userSeq: number;
	injected: string;
	/** The provider the request goes to (its entry in Settings). */
	provider?: string;
	/** The bytes of the images the rows show, by id. */
	images?: RequestImages;
}): ChatMessage[] {
	const messages: ChatMessage[] = [];
	if (options.systemPrompt) messages.push({ role: 'system', content: options.systemPrompt });
	for (const row of contextRows(options.rows)) {
		const message = toChatMessage(row, options.provider, options.images ?? NO_IMAGES);
		if (row.seq === options.userSeq) {
			message.content = withInjectedContext(message.content, options.injected);
		}
		messages.push(message);
	}
	return closeToolCalls(dropOrphanResults(messages));
}
