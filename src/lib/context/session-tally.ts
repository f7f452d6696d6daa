// One session's live rows as its request estimate needs them, for one encoding: per row (by
// seq) whether it is part of the context and its count, with the sums kept up to date as rows
// change, so an estimate costs O(rows that changed), not O(rows). Pure: the caller feeds it
// rows (read, or as committed) and counts (from the worker).
import { isContextRow } from '../db/context-rows';
import type { MessageRow } from '../db/schema';
import { costText } from './context-rows';
import type { EncodingName } from './count-tokens';
import type { Size as ImageSize } from '../attachments/image-limits';

/**
 * The sizes of the images a row sends (attached, or a tool's result), whose tokens depend on the
 * model, not the encoding; none once compaction stopped sending them (a note stands for each).
 */
export function imagesOf(row: Pick<MessageRow, 'attachments' | 'tool_result' | 'images_pruned'>): ImageSize[] {
	if (row.images_pruned) return [];
	const attached = row.attachments?.flatMap((a) => (a.type === 'image' ? [{ width: a.width, height: a.height }] : [])) ?? [];
	const returned = row.tool_result?.parts.flatMap((p) => (p.type === 'image' && p.width && p.height ? [{ width: p.width, height: p.height }] : [])) ?? [];
	return [...attached, ...returned];
}

/** A row of the context (rows outside it are not kept). */
interface Entry {
	/** Its count in this encoding, when known. */
	tokens: number | null;
	/** Its text, while it has no count or its count is not stored on the row yet. */
	text: string | null;
	/** The row holds this count (so it survives a reload). */
	stored: boolean;
	/** A write of this count to its row is on its way. */
	storing?: boolean;
	/** The images it sends, when any. */
	images?: ImageSize[];
}

/** A count the tally made that its row does not hold yet. */
export interface UnstoredCount {
	seq: number;
	text: string;
	tokens: number;
}

export class SessionTally {
	readonly encoding: EncodingName;
	readonly #entries = new Map<number, Entry>();
	/** Rows in the context, and the sum of their known counts. */
	#included = 0;
	#counted = 0;
	/** Seqs of rows in the context without a count, and of counts not stored yet. */
	readonly #uncounted = new Set<number>();
	readonly #unstored = new Set<number>();
	/** Seqs of rows in the context that send images. */
	readonly #withImages = new Set<number>();

	constructor(encoding: EncodingName, rows: readonly MessageRow[] = []) {
		this.encoding = encoding;
		for (const row of rows) this.apply(row.seq, row);
	}

	/** Rows in the context. */
	get included(): number {
		return this.#included;
	}

	/** Sum of the known counts of rows in the context. */
	get counted(): number {
		return this.#counted;
	}

	/** The sizes of the images the context sends (counted by the wire format's rule, see attachments/image-tokens.ts). */
	imageSizes(): ImageSize[] {
		return [...this.#withImages].flatMap((seq) => this.#entries.get(seq)?.images ?? []);
	}

	/** Rows of the context without a count: their seq and the text to count. */
	uncounted(): Array<{ seq: number; text: string }> {
		return [...this.#uncounted].map((seq) => ({ seq, text: this.#entries.get(seq)?.text as string }));
	}

	/** Counts made here that their rows do not hold yet, and that no write is storing. */
	unstored(): UnstoredCount[] {
		const counts: UnstoredCount[] = [];
		for (const seq of this.#unstored) {
			const entry = this.#entries.get(seq) as Entry;
			if (!entry.storing) counts.push({ seq, text: entry.text as string, tokens: entry.tokens as number });
		}
		return counts;
	}

	/** Marks counts as being written (or, after a failed write, as waiting again). */
	markStoring(counts: readonly UnstoredCount[], storing: boolean): void {
		for (const { seq, text } of counts) {
			const entry = this.#entries.get(seq);
			if (entry && !entry.stored && entry.text === text) entry.storing = storing;
		}
	}

	/** A row as it now is in the database (null: gone). */
	apply(seq: number, row: MessageRow | null): void {
		const before = this.#entries.get(seq);
		const after = row && isContextRow(row) ? this.#withImagesOf(row, this.#entryOf(row, before)) : null;
		if (before) this.#remove(seq, before);
		if (after) this.#add(seq, after);
	}

	/** Rows of a seq range as they now are: those in `rows`, and none other (ends included). */
	replaceRange(from: number, to: number, rows: readonly MessageRow[]): void {
		for (const seq of [...this.#entries.keys()]) if (seq >= from && seq <= to) this.apply(seq, null);
		for (const row of rows) if (row.seq >= from && row.seq <= to) this.apply(row.seq, row);
	}

	/** A count the worker made of `text`; ignored if the row changed meanwhile. */
	setCount(seq: number, text: string, tokens: number): void {
		const entry = this.#entries.get(seq);
		if (!entry || entry.tokens !== null || entry.text !== text) return;
		this.#remove(seq, entry);
		this.#add(seq, { tokens, text, stored: false, ...(entry.images ? { images: entry.images } : {}) });
	}

	#withImagesOf(row: MessageRow, entry: Entry): Entry {
		const images = imagesOf(row);
		return images.length ? { ...entry, images } : entry;
	}

	#entryOf(row: MessageRow, before: Entry | undefined): Entry {
		if (row.tokens !== undefined && Number.isFinite(row.tokens) && row.encoding === this.encoding) {
			return { tokens: row.tokens, text: null, stored: true };
		}
		const text = costText(row);
		// A count this tally made of the same text is still right (its write may be on its way).
		if (before && before.tokens !== null && before.text === text) return { tokens: before.tokens, text, stored: false, storing: before.storing };
		return { tokens: null, text, stored: false };
	}

	#remove(seq: number, entry: Entry): void {
		this.#entries.delete(seq);
		this.#included -= 1;
		if (entry.tokens !== null) this.#counted -= entry.tokens;
		this.#uncounted.delete(seq);
		this.#unstored.delete(seq);
		this.#withImages.delete(seq);
	}

	#add(seq: number, entry: Entry): void {
		this.#entries.set(seq, entry);
		this.#included += 1;
		if (entry.tokens === null) this.#uncounted.add(seq);
		else this.#counted += entry.tokens;
		if (entry.tokens !== null && !entry.stored) this.#unstored.add(seq);
		if (entry.images) this.#withImages.add(seq);
	}
}
