// Merges two versions of a message document, field by field by clock, as sessions merge.
// Commutative, associative and idempotent; a removal, once made anywhere, holds.
import { compareValues } from './merge-session';
import { fieldClock, MESSAGE_FIELDS, type MessageDoc, type MessageField, type SyncedMessage } from './message-document';

/** A removed message: its place is kept, nothing of it is. */
export function removedMessage(doc: Pick<MessageDoc, 'session_id' | 'position' | 'clock'>): MessageDoc {
	return { session_id: doc.session_id, position: doc.position, clock: doc.clock, fields: {} as SyncedMessage, clocks: {}, removed: true };
}

export function mergeMessageDocs(a: MessageDoc, b: MessageDoc): MessageDoc {
	if (a.session_id !== b.session_id || a.position !== b.position) throw new Error(`Cannot merge message ${a.position} with message ${b.position}.`);
	const base = a.clock < b.clock ? a.clock : b.clock;
	if (a.removed || b.removed) return removedMessage({ ...a, clock: base });
	const fields: Record<string, unknown> = {};
	const clocks: Partial<Record<MessageField, string>> = {};
	for (const name of MESSAGE_FIELDS) {
		const [clockA, clockB] = [fieldClock(a, name), fieldClock(b, name)];
		const [valueA, valueB] = [a.fields[name], b.fields[name]];
		const takeB = clockB > clockA || (clockB === clockA && compareValues(valueB, valueA) > 0);
		const value = takeB ? valueB : valueA;
		const clock = takeB ? clockB : clockA;
		if (value !== undefined && value !== null) fields[name] = value;
		if (clock !== base) clocks[name] = clock;
	}
	return { session_id: a.session_id, position: a.position, clock: base, fields: fields as SyncedMessage, clocks, removed: false };
}

/** Whether two message documents say the same thing. */
export function sameMessage(a: MessageDoc, b: MessageDoc): boolean {
	if (a === b) return true;
	if (a.removed || b.removed) return a.removed === b.removed;
	return MESSAGE_FIELDS.every((name) => fieldClock(a, name) === fieldClock(b, name) && compareValues(a.fields[name], b.fields[name]) === 0);
}
