// pre_llm_call's conversation_history crosses to an isolated plugin as what changed since the
// plugin's previous call: the messages it already holds are kept, the new ones are sent. Every
// message sent to a plugin's context costs the page a copy (measured: ~0.6 ms a plugin for a
// 100-message history in Chromium, on the page's main thread), while a turn adds only its own
// exchange. Each side keeps the last history; a version check makes a lost step resend it all.
import { deepFreeze } from '../../hooks/freeze-payload';

export type HistoryEntry = Readonly<Record<string, unknown>>;

/** What crosses: `keep` messages of version `base` (0: none), then `add`; the result is `version`. */
export interface HistoryDelta {
	version: number;
	base: number;
	keep: number;
	add: readonly HistoryEntry[];
}

/** The page's side, one per plugin context: remembers what it last sent there. */
export class HistorySender {
	#sent: { version: number; messages: readonly HistoryEntry[] } | null = null;
	#next = 1;

	encode(messages: readonly HistoryEntry[]): HistoryDelta {
		const sent = this.#sent;
		const keep = sent ? sharedPrefix(sent.messages, messages) : 0;
		const version = this.#next++;
		this.#sent = { version, messages };
		return { version, base: keep > 0 && sent ? sent.version : 0, keep, add: messages.slice(keep) };
	}

	/** The next call sends the whole history. */
	forget(): void {
		this.#sent = null;
	}
}

/** The plugin context's side: rebuilds each history from the one before. */
export class HistoryReceiver {
	#held: { version: number; messages: readonly HistoryEntry[] } | null = null;

	/**
	 * The history, frozen (messages are kept for the next call, so nothing may change them), or
	 * null when the delta builds on a history this side does not hold.
	 */
	receive(delta: HistoryDelta): readonly HistoryEntry[] | null {
		const held = this.#held;
		if (delta.keep > 0 && (held?.version !== delta.base || held.messages.length < delta.keep)) return null;
		const kept = delta.keep > 0 && held ? held.messages.slice(0, delta.keep) : [];
		const messages = deepFreeze([...kept, ...delta.add]);
		this.#held = { version: delta.version, messages };
		return messages;
	}
}

/** How many leading messages the two histories share, compared as plain data. */
export function sharedPrefix(before: readonly HistoryEntry[], after: readonly HistoryEntry[]): number {
	const most = Math.min(before.length, after.length);
	let same = 0;
	while (same < most && samePlainData(before[same], after[same])) same++;
	return same;
}

// Messages are plain data (structured-cloneable, DESIGN §7); fields may be added to them later,
// so every field is compared, in order, not only role and content. Anything else (a Date, a
// Map) counts as changed: it is sent again, which is never wrong.
function samePlainData(a: unknown, b: unknown): boolean {
	if (Object.is(a, b)) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) return false;
		for (let i = 0; i < a.length; i++) if (i in a !== i in b || !samePlainData(a[i], b[i])) return false;
		return true;
	}
	if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
	const keys = Object.keys(a);
	const otherKeys = Object.keys(b);
	if (keys.length !== otherKeys.length) return false;
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	return keys.every((key, i) => otherKeys[i] === key && samePlainData(left[key], right[key]));
}
