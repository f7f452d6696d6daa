import 'fake-indexeddb/auto';
import { MessageChannel } from 'node:worker_threads';
import { expose } from 'comlink';
import { afterEach, expect, it, vi } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { createSession } from '../sessions/session-lifecycle';
import { createTokenClientFromPort } from './token-client';
import { tokenizerApi } from './tokenizer-api';
import { refreshTokenEstimate } from './refresh-token-estimate';
import { contextWindowFor } from './context-window';

let db: PalimpsestDb;
afterEach(async () => {
	db.close();
	await db.delete();
});

it('counts each message once, caches counts on rows and stores the total on the session', async () => {
	db = new PalimpsestDb(`tokens-${crypto.randomUUID()}`);
	const { port1, port2 } = new MessageChannel();
	expose(tokenizerApi, port1 as never);
	const client = createTokenClientFromPort(port2 as never);
	const session = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'offline', model: 'gpt-4o' });
	const base = { status: 'complete', kind: 'message', created_at: 1 } as const;
	await appendMessages(db, session.id, [
		{ ...base, id: 'a', role: 'user', content: 'How many tokens is this sentence?' },
		{ ...base, id: 'b', role: 'assistant', content: '{"answer": 42, "unit": "tokens"}' },
		{ ...base, id: 'c', role: 'user', kind: 'command', content: '/usage' }
	]);
	const spy = vi.spyOn(client, 'estimate');
	const total = await refreshTokenEstimate(db, client, session.id, 'gpt-4o');
	const rows = await listMessages(db, session.id);
	expect(rows[0].tokens).toBe(encode('How many tokens is this sentence?').length);
	expect(rows[1].tokens).toBe(encode('{"answer": 42, "unit": "tokens"}').length);
	expect(rows[2].tokens).toBeUndefined();
	expect(rows[0].encoding).toBe('o200k_base');
	expect(total).toBe(rows[0].tokens! + rows[1].tokens! + 2 * 4);
	expect((await db.sessions.get(session.id))?.token_estimate).toBe(total);
	// A second pass sends the cached counts along, so the worker recounts nothing.
	await refreshTokenEstimate(db, client, session.id, 'gpt-4o');
	expect(spy.mock.calls[1][0].messages.every((m) => m.tokens !== undefined && m.content === '')).toBe(true);
	expect(await refreshTokenEstimate(db, client, session.id, 'gpt-4o')).toBe(total);
	expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
	client.dispose();
	port1.close();
});
