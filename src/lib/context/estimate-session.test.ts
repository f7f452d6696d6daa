import 'fake-indexeddb/auto';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages, type NewMessage } from '../db/message-verbs';
import { getSession } from '../db/session-verbs';
import { createSession } from '../sessions/session-lifecycle';
import { contextApi } from './context-api';
import type { EstimateInput } from './count-tokens';
import { estimateSession } from './estimate-session';

let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`estimate-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

/** The worker's own estimate, recording the text each call had to count. */
function recordingCounter() {
	const counted: string[][] = [];
	return {
		counted,
		estimate(input: EstimateInput, model: string) {
			counted.push(input.messages.map((message) => message.content).filter(Boolean));
			return contextApi.estimate(input, model);
		}
	};
}

const message = (id: string, role: 'user' | 'assistant', content: string): NewMessage => ({ id, role, content, kind: 'message', status: 'complete', created_at: 1 });

describe('estimateSession', () => {
	it('stores every new count on its row, so after one new message only that message is counted again', async () => {
		const { id } = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'offline', model: 'gpt-4o' });
		const first = [message('u1', 'user', 'How do I count tokens?'), message('a1', 'assistant', '東京は日本の首都です。{"count": 12}'), message('u2', 'user', 'And in a worker?')];
		await appendMessages(db, id, first);
		const counter = recordingCounter();

		const before = await estimateSession(db, counter, id, 'gpt-4o', { systemPrompt: '' });
		expect(counter.counted[0]).toEqual(first.map((row) => row.content));
		const stored = await listMessages(db, id);
		expect(stored.map((row) => [row.tokens, row.encoding])).toEqual(first.map((row) => [o200k.encode(row.content).length, 'o200k_base']));
		expect((await getSession(db, id))?.token_estimate).toBe(before?.total);

		await appendMessages(db, id, [message('a2', 'assistant', 'Yes, in a Web Worker.')]);
		const after = await estimateSession(db, counter, id, 'gpt-4o', { systemPrompt: '' });
		expect(counter.counted[1]).toEqual(['Yes, in a Web Worker.']);
		expect((await listMessages(db, id)).at(-1)?.tokens).toBe(o200k.encode('Yes, in a Web Worker.').length);
		expect(after?.total).toBe((before?.total ?? 0) + o200k.encode('Yes, in a Web Worker.').length + 4);
	});
});
