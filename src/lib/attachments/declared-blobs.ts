// What the messages of a session say each of its files is: an image a tool returned or the user
// attached, or an attached file, each of a type and size, under an id. One id is one file of one
// kind: two messages that say different things of one id disagree, and neither is believed.
import type { MessageRow } from '../db/schema';
import { IMAGE_LABELS, type DeclaredBytes } from './check-bytes';

/** What one message says of one file. */
export interface DeclaredBlob extends DeclaredBytes {
	size: number;
	/** An attached file's name. */
	name?: string;
	/** The message that says it, by its place in the list given. */
	row: number;
}

/** Two messages that say different things of one id. */
export interface Disagreement {
	id: string;
	first: DeclaredBlob;
	second: DeclaredBlob;
}

type Row = Pick<MessageRow, 'attachments' | 'tool_result'>;

/** What `row` (at `at`) says of each file it shows. */
function declaredBy(row: Row, at: number): Array<[string, DeclaredBlob]> {
	return [
		...(row.tool_result?.parts.flatMap((part) => (part.type === 'image' ? [[part.id, { kind: 'image', type: part.mimeType, size: part.size, row: at }] as [string, DeclaredBlob]] : [])) ?? []),
		...(row.attachments?.map((a): [string, DeclaredBlob] => [a.id, { kind: a.type, type: a.mimeType, size: a.size, ...(a.type === 'file' ? { name: a.name } : {}), row: at }]) ?? [])
	];
}

const agree = (a: DeclaredBlob, b: DeclaredBlob) => a.kind === b.kind && a.type === b.type && a.size === b.size;

/** Each file `rows` show, by id, as the first message showing it says; and the first disagreement, if any. */
export function declaredBlobs(rows: readonly Row[]): { byId: Map<string, DeclaredBlob>; disagreement: Disagreement | null } {
	const byId = new Map<string, DeclaredBlob>();
	let disagreement: Disagreement | null = null;
	rows.forEach((row, at) => {
		for (const [id, declared] of declaredBy(row, at)) {
			const first = byId.get(id);
			if (!first) byId.set(id, declared);
			else if (!disagreement && !agree(first, declared)) disagreement = { id, first, second: declared };
		}
	});
	return { byId, disagreement };
}

/** A declaration in words: "a PNG image (image/png)", "a file “n.html” (text/html)". */
export function describeDeclared(declared: DeclaredBlob, withSize = false): string {
	const label = IMAGE_LABELS[declared.type];
	const what = declared.kind === 'file' ? `a file “${declared.name ?? ''}”` : label ? `a ${label} image` : 'an image';
	return `${what} (${declared.type}${withSize ? `, ${declared.size} bytes` : ''})`;
}
