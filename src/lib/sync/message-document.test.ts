// A message's document carries the transcript and what decides its place in the conversation
// (what covers or retires it, its version, its order), never what is this device's own (seq,
// active, request recipe, plugin context, token counts), and reads back as the same message.
import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../db/schema';
import { fieldsOfRow, MESSAGE_FIELDS, messageToBody, rowFieldsOf, type MessageDoc } from './message-document';
import { nextPosition } from './position';
import { readDocument } from './read-document';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const REV = '1-a816ee822d39f92fd10f169d92d3ace9';
const random = seededRandom(7);
const [P1, P2] = [nextPosition(undefined, NOW, random), nextPosition(undefined, NOW + 1, random)];

/** An answer with every field a row may hold, those kept on this device included. */
function answerRow(extra: Partial<MessageRow> = {}): MessageRow {
	return {
		session_id: 's-1',
		seq: 4,
		position: P2,
		rank: `P${P1.slice(1)} ${P2}`,
		branch: { at: P1, id: P1 },
		id: 'm-4',
		role: 'assistant',
		content: 'Lisbon in May is warm.',
		status: 'complete',
		kind: 'message',
		active: 1,
		compacted_by: 'c-0',
		retired_by: 'c-9',
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
		images_pruned: true,
		pinned: true,
		...extra
	};
}

const docOf = (row: MessageRow): MessageDoc => ({ session_id: 's-1', position: row.position, clock: row.position, fields: fieldsOfRow(row, [{ id: 'img-1', type: 'image/png', size: 68 }]), clocks: {}, removed: false });

describe('message documents', () => {
	it('send the conversation fields only: no seq, active or shelved state, request recipe, plugin context or token counts', () => {
		const body = messageToBody(docOf(answerRow()));
		expect(body._id).toBe(`msg:s-1:${P2}`);
		expect(Object.keys(body).sort()).toEqual(['_id', 'clock', 'fields', 'format']);
		expect(Object.keys(body.fields as object).sort()).toEqual([...MESSAGE_FIELDS].filter((field) => field !== 'attachments').sort());
		for (const local of ['session_id', 'seq', 'active', 'shelved', 'sent', 'injected', 'tokens', 'encoding', 'rank']) expect(body.fields).not.toHaveProperty(local);
		expect(JSON.stringify(body)).not.toMatch(/SECRET-PLUGIN-CONTEXT|SECRET-FRAME/);
	});

	it('read back from their body as the same message, which gives the row its rank, version and cover', () => {
		const doc = docOf(answerRow());
		expect(readDocument({ ...messageToBody(doc), _rev: REV }, NOW)).toEqual({ kind: 'message', rev: REV, doc });
		expect(rowFieldsOf(doc)).toMatchObject({ rank: `P${P1.slice(1)} ${P2}`, branch: { at: P1, id: P1 }, compacted_by: 'c-0', retired_by: 'c-9', position: P2 });
		const plain = docOf({ session_id: 's-1', seq: 0, position: P1, id: 'm-0', role: 'user', content: 'hi', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: NOW });
		expect(rowFieldsOf(plain)).toMatchObject({ rank: P1, compacted_by: null });
	});

	it('carry the arguments a tool ran with when plugins changed them, and the plugins, to every device', () => {
		const body = messageToBody(docOf(answerRow({ role: 'tool', tool_calls: undefined })));
		expect((body.fields as MessageDoc['fields']).ran_with).toEqual({ arguments: '{"city":"Porto"}', changed_by: ['Travel guard'] });
		expect(readDocument({ ...body, _rev: REV }, NOW)).toMatchObject({ kind: 'message', doc: { fields: { ran_with: { arguments: '{"city":"Porto"}', changed_by: ['Travel guard'] } } } });
	});

	it('carry whether the message is kept in context; one no longer kept loses the pin where it arrives', () => {
		const body = messageToBody(docOf(answerRow()));
		expect((body.fields as MessageDoc['fields']).pinned).toBe(true);
		expect(readDocument({ ...body, _rev: REV }, NOW)).toMatchObject({ kind: 'message', doc: { fields: { pinned: true } } });
		expect(rowFieldsOf(docOf(answerRow({ pinned: undefined })))).not.toHaveProperty('pinned');
		expect(readDocument({ ...body, fields: { ...(body.fields as object), pinned: 'yes' }, _rev: REV }, NOW)).toMatchObject({ kind: 'refused' });
	});

	it('do not share objects with the row they were made of', () => {
		const row = answerRow();
		const doc = docOf(row);
		row.tool_calls![0].name = 'changed';
		expect(doc.fields.tool_calls![0].name).toBe('weather');
	});
});
