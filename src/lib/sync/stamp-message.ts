// A message's document after this device's edits: the row's synced fields, each with the clock
// of its last edit. Which fields this device edited since the last stamp is read from digests of
// their values as then (a digest that moved is an edit); a new document's every field has its
// position as clock, so two devices that stamp the same new row agree. Pure.
import { nextClock } from './clock';
import { digest } from './digest';
import { MESSAGE_FIELDS, type MessageDoc, type MessageField, type SyncedMessage } from './message-document';
import type { RandomBytes } from './position';

/** What sync keeps of a message whose row holds its values: the clocks and the digests as last stamped or merged. */
export interface MessageClocks {
	clock: string;
	clocks: Partial<Record<MessageField, string>>;
}

/** The digest of a field without a value: digests are kept only of the fields that have one. */
const NO_VALUE = digest(null);

/** The digest of each synced field of `fields` that has a value (sync's records stay small: most fields have none). */
export function digestsOf(fields: SyncedMessage): Record<string, string> {
	const sums: Record<string, string> = {};
	for (const field of MESSAGE_FIELDS) {
		const value = fields[field];
		if (value !== undefined && value !== null) sums[field] = digest(value);
	}
	return sums;
}

/** Whether two digests of a field differ (one missing: the field had no value; records kept before listed every field). */
const moved = (now: Record<string, string>, then: Record<string, string>, field: string) => (now[field] ?? NO_VALUE) !== (then[field] ?? NO_VALUE);

export interface StampedMessage {
	doc: MessageDoc;
	sums: Record<string, string>;
	/** Whether anything was edited since `previous`. */
	changed: boolean;
}

/** The document of the row whose synced fields are `fields`, stamped over what was kept of it. */
export function stampMessage(
	sessionId: string,
	position: string,
	fields: SyncedMessage,
	previous: { clocks: MessageClocks; sums?: Record<string, string> } | undefined,
	edit: { at: number; random: RandomBytes }
): StampedMessage {
	const sums = digestsOf(fields);
	if (!previous?.sums) {
		// First sent from here: every field at the message's own position (a revision known from before keeps its place).
		const base = previous?.clocks.clock ?? position;
		return { doc: { session_id: sessionId, position, clock: base, fields, clocks: previous ? { ...previous.clocks.clocks } : {}, removed: false }, sums, changed: true };
	}
	const changed = MESSAGE_FIELDS.filter((field) => moved(sums, previous.sums!, field));
	const clocks = { ...previous.clocks.clocks };
	if (changed.length) {
		const clock = nextClock([previous.clocks.clock, ...Object.values(previous.clocks.clocks)], edit.at, edit.random);
		for (const field of changed) clocks[field] = clock;
	}
	return { doc: { session_id: sessionId, position, clock: previous.clocks.clock, fields, clocks, removed: false }, sums, changed: changed.length > 0 };
}
