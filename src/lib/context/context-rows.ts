// The shape of a conversation row as compaction planning sees it: plain data, no database.
import type { Role, ToolCall } from '../providers/types';

/** An image or file a row shows (attached by the user, or a tool result's image), by name and size, never its bytes. */
export interface AttachedItem {
	type: 'image' | 'file';
	name: string;
	width?: number;
	height?: number;
}

export interface ContextRow {
	seq: number;
	role: Role;
	/** 'summary' rows hold an earlier compaction's summary and sit before what they replaced. */
	kind: 'message' | 'summary';
	/** A summary the user edited: later compactions keep it word for word, ahead of their own. */
	edited?: boolean;
	/** A message the user keeps in context: compactions leave it (and a pinned answer's tool results) as it is. */
	pinned?: boolean;
	content: string;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	/** Exact token count (filled in by the worker before planning). */
	tokens?: number;
	encoding?: string;
	/** What it shows besides its text: a summary names these, so the model knows they existed. */
	attached?: AttachedItem[];
	/** Its images are no longer sent: a short note stands for each (see imageNotes). */
	images_pruned?: true;
}

export type CountedRow = ContextRow & { tokens: number };

/** A row's images and files as they can be named: `attached` where given, else read from a stored row's fields. */
export interface AttachedSource {
	attached?: AttachedItem[];
	attachments?: ReadonlyArray<{ type: 'image' | 'file'; name: string; width?: number; height?: number }>;
	tool_result?: { parts: ReadonlyArray<{ type: string; width?: number; height?: number }> };
}

export function attachedItems(row: AttachedSource): AttachedItem[] {
	if (row.attached) return row.attached;
	const attached = (row.attachments ?? []).map(({ type, name, width, height }) => (type === 'image' ? { type, name, width, height } : { type, name }));
	const returned = (row.tool_result?.parts ?? []).flatMap((part) =>
		part.type === 'image' ? [{ type: 'image' as const, name: 'an image from the tool', width: part.width, height: part.height }] : []
	);
	return [...attached, ...returned];
}

/** One item as a summary names it: "photo.png (image, 1200 × 800)", or a file's name alone. */
export function nameItem(item: AttachedItem): string {
	if (item.type === 'file') return item.name;
	return item.width && item.height ? `${item.name} (image, ${item.width} × ${item.height})` : `${item.name} (image)`;
}

/** The line that names what a row showed, for a summary of it; empty when it showed nothing. */
export function attachedLine(row: AttachedSource): string {
	const items = attachedItems(row);
	return items.length ? `[attached: ${items.map(nameItem).join(', ')}]` : '';
}

/** The notes a request carries instead of a row's images once they are no longer sent. */
export function imageNotes(row: AttachedSource & { images_pruned?: boolean }): string[] {
	if (!row.images_pruned) return [];
	return attachedItems(row).flatMap((item) => (item.type === 'image' ? [`[${item.name} (image), not sent again]`] : []));
}

/** The text a row costs in a request: its content, any tool-call names and arguments, and the notes standing for images no longer sent. */
export function costText(row: Pick<ContextRow, 'content' | 'tool_calls'> & AttachedSource & { images_pruned?: boolean }): string {
	const notes = imageNotes(row);
	if (!row.tool_calls?.length && !notes.length) return row.content;
	return [row.content, ...(row.tool_calls ?? []).map((call) => `${call.name}(${call.arguments})`), ...notes].join('\n');
}

/** Tool results stubbed by pruning start with this, so they are never pruned twice. */
export const PRUNED_STUB_PREFIX = '[Tool output pruned';
