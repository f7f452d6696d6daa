// Recent exact counts by encoding and text, on the main thread: the system prompt and the tool
// schemas of every estimate, and the draft the Message box counted while it was typed (which
// becomes the sent message), are then not sent to the worker again. A count depends only on
// the encoding and the text, so a remembered one is never stale. Bounded by characters kept.

const MAX_CHARS = 1_000_000;
/** Longer texts are counted each time: remembering one would push out everything else. */
const MAX_TEXT = 100_000;

export class CountMemo {
	/** Insertion order is recency order: a hit moves its entry to the end. */
	readonly #counts = new Map<string, number>();
	#chars = 0;
	readonly #maxChars: number;

	constructor(maxChars = MAX_CHARS) {
		this.#maxChars = maxChars;
	}

	get(encoding: string, text: string): number | undefined {
		const key = `${encoding}\u0000${text}`;
		const count = this.#counts.get(key);
		if (count === undefined) return undefined;
		this.#counts.delete(key);
		this.#counts.set(key, count);
		return count;
	}

	set(encoding: string, text: string, count: number): void {
		if (text.length > Math.min(MAX_TEXT, this.#maxChars)) return;
		const key = `${encoding}\u0000${text}`;
		if (this.#counts.delete(key)) this.#chars -= key.length;
		this.#counts.set(key, count);
		this.#chars += key.length;
		for (const [oldest] of this.#counts) {
			if (this.#chars <= this.#maxChars) break;
			this.#counts.delete(oldest);
			this.#chars -= oldest.length;
		}
	}
}
