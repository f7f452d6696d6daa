// A message's document carries the transcript, never what is this device's own (the request's
// recipe, plugin context, active or shelved state), and reads back as the same message.
import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../db/schema';
import { messageDocFromRow, messageToBody, SYNCED_MESSAGE_FIELDS } from './message-document';
import { nextPosition } from './position';
import { readDocument } from './read-document';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const REV = '1-a816ee822d39f92fd10f169d92d3ace9';
const random = seededRandom(7);
const [P1, P2, P3] = [nextPosition(undefined, NOW, random), nextPosition(undefined, NOW + 1, random), nextPosition(undefined, NOW + 2, random)];

/** An answer with every field a row may hold, those kept on this device included. */
function answerRow(extra: Partial<MessageRow> = {}): MessageRow {
	return {
		session_id: 's-1',
		seq: 4,
		position: P2,
		id: 'm-4',
		role: 'assistant',
		content: 'Lisbon in May is warm.',
		status: 'complete',
		kind: 'message',
		active: 1,
		compacted_by: 'compaction-local',
		created_at: NOW,
		tool_calls: [{ id: 'call-1', name: 'weather', arguments: '{"city":"Lisbon"}' }],
		tool_call_id: 'call-0',
		tool_result: { server: 'Weather', is_error: false, parts: [{ type: 'text', text: '22 °C' }] },
		ran_with: { arguments: '{"city":"Porto"}', changed_by: ['Travel guard'] },
		tokens: 9,
		encoding: 'o200k_base',
		error: 'none',
		injected: [{ plugin_id: 'memory', plugin_name: 'Memory', text: 'SECRET-PLUGIN-CONTEXT' }],
		compaction: { id: 'c-1', kind: 'summarize', reason: 'manual', before_tokens: 900, after_tokens: 90, messages_removed: 3, at: NOW },
		native: { api: 'anthropic', model: 'claude', items: [{ type: 'compaction', content: 'x' }], opaque: false },
		model: 'gpt-x',
		provider: 'openai',
		tokens_per_second: 42,
		shelved: { after: 2, version: 1 },
		sent: { frame: 'frame:SECRET-FRAME', seqs: [[0, 4]], user_seq: 3, provider: 'openai', model: 'gpt-x', body_hash: 'abc' },
		usage: { input_tokens: 100, output_tokens: 9 },
		...extra
	};
}

describe('message documents', () => {
	it('send the transcript fields only: no seq, active, compacted_by, shelved version, request recipe or plugin context', () => {
		const body = messageToBody(messageDocFromRow(answerRow(), P2));
		expect(body._id).toBe(`msg:s-1:${P2}`);
		const keys = Object.keys(body).filter((key) => key !== '_id' && key !== 'format');
		expect(keys.sort()).toEqual([...SYNCED_MESSAGE_FIELDS].sort());
		for (const local of ['session_id', 'seq', 'active', 'compacted_by', 'shelved', 'sent', 'injected']) expect(body).not.toHaveProperty(local);
		expect(JSON.stringify(body)).not.toMatch(/SECRET-PLUGIN-CONTEXT|SECRET-FRAME|compaction-local/);
	});

	it('read back from their body as the same message, a compaction with the positions it covers', () => {
		const doc = messageDocFromRow(answerRow({ kind: 'summary' }), P3, [P2, P1, P2]);
		expect(doc.covers).toEqual([P1, P2]);
		expect(readDocument({ ...messageToBody(doc), _rev: REV })).toEqual({ kind: 'message', rev: REV, doc });
		const plain = messageDocFromRow({ session_id: 's-1', seq: 0, position: P1, id: 'm-0', role: 'user', content: 'hi', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: NOW }, P1);
		expect(readDocument({ ...messageToBody(plain), _rev: REV })).toEqual({ kind: 'message', rev: REV, doc: plain });
	});

	it('carry the arguments a tool ran with when plugins changed them, and the plugins, to every device', () => {
		const row = answerRow({ role: 'tool', tool_calls: undefined });
		const body = messageToBody(messageDocFromRow(row, P2));
		expect(body.ran_with).toEqual({ arguments: '{"city":"Porto"}', changed_by: ['Travel guard'] });
		expect(readDocument({ ...body, _rev: REV })).toMatchObject({ kind: 'message', doc: { message: { ran_with: { arguments: '{"city":"Porto"}', changed_by: ['Travel guard'] } } } });
	});

	it('are not made of an answer still streaming, nor of a compaction covering what sorts after it', () => {
		expect(() => messageDocFromRow(answerRow({ status: 'streaming' }), P2)).toThrow(/still streaming/);
		expect(() => messageDocFromRow(answerRow(), P2, [P3])).toThrow(/cannot cover/);
		expect(() => messageDocFromRow(answerRow(), P2, [P2])).toThrow(/cannot cover/);
	});

	it('do not share objects with the row they were made of', () => {
		const row = answerRow();
		const doc = messageDocFromRow(row, P2);
		row.tool_calls![0].name = 'changed';
		expect(doc.message.tool_calls![0].name).toBe('weather');
	});
});
