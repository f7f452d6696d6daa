// The conversation history an isolated plugin receives is rebuilt from what changed: these
// check that it is always the history the page had, and that only the new part is sent.
import { describe, expect, it } from 'vitest';
import { HistoryReceiver, HistorySender, sharedPrefix, type HistoryDelta } from './history-delta';

const message = (i: number, extra: Record<string, unknown> = {}) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}`, ...extra });
const history = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => message(from + i));
/** What crosses a MessagePort: a structured clone, so nothing is shared by identity. */
const cross = (delta: HistoryDelta): HistoryDelta => structuredClone(delta);

describe('conversation history sent as what changed', () => {
	it('rebuilds every history the page had, sending only the messages the context lacks', () => {
		const sender = new HistorySender();
		const receiver = new HistoryReceiver();
		const turns = [
			history(0, 20),
			// The next turn: the same messages as new copies, and one more exchange.
			history(0, 22),
			// A compaction: a summary, then the kept tail.
			[{ role: 'user', content: 'summary of 0–15' }, ...history(16, 22)],
			// A message changed in the middle, and a field added to another.
			[{ role: 'user', content: 'summary of 0–15' }, message(16), message(17, { name: 'edited' }), ...history(18, 22)],
			// Another session's history.
			history(100, 103),
			[]
		];
		const sent: HistoryDelta[] = [];
		for (const turn of turns) {
			const delta = sender.encode(turn);
			sent.push(delta);
			expect(receiver.receive(cross(delta))).toEqual(turn);
		}
		expect(sent.map((delta) => [delta.keep, delta.add.length])).toEqual([
			[0, 20],
			[20, 2],
			[0, 7],
			[2, 5],
			[0, 3],
			[0, 0]
		]);
	});

	it('after a step the context missed, is refused, then sends the whole history', () => {
		const sender = new HistorySender();
		const receiver = new HistoryReceiver();
		expect(receiver.receive(cross(sender.encode(history(0, 4))))).toHaveLength(4);
		sender.encode(history(0, 6)); // never arrived
		const next = sender.encode(history(0, 8));
		expect(next.keep).toBe(6);
		expect(receiver.receive(cross(next))).toBeNull();
		sender.forget();
		expect(receiver.receive(cross(sender.encode(history(0, 8))))).toEqual(history(0, 8));
	});

	it('hands over a frozen history, so a plugin cannot change what the next call rebuilds from', () => {
		const sender = new HistorySender();
		const receiver = new HistoryReceiver();
		const first = receiver.receive(cross(sender.encode(history(0, 2))))!;
		expect(Object.isFrozen(first) && first.every((entry) => Object.isFrozen(entry))).toBe(true);
		expect(() => ((first[0] as { content: string }).content = 'changed')).toThrow(TypeError);
		expect(receiver.receive(cross(sender.encode(history(0, 3))))).toEqual(history(0, 3));
	});

	it('counts a message as unchanged only when every field is the same, in the same order', () => {
		expect(sharedPrefix([message(0), message(1)], [message(0), message(1)])).toBe(2);
		expect(sharedPrefix([message(0)], [{ content: 'message 0', role: 'user' }])).toBe(0);
		expect(sharedPrefix([message(0, { tool_calls: [{ id: 'a' }] })], [message(0, { tool_calls: [{ id: 'b' }] })])).toBe(0);
		expect(sharedPrefix([message(0, { at: new Date(1) })], [message(0, { at: new Date(1) })])).toBe(0);
		expect(sharedPrefix([message(0, { score: NaN })], [message(0, { score: NaN })])).toBe(1);
	});
});
