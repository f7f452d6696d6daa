import 'fake-indexeddb/auto';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commitCompaction, listActiveMessages } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import { PalimpsestDb } from '../db/database';
import { commitDeletion } from '../db/deletion-verbs';
import { appendMessages, deleteMessages, listMessages, updateMessage, type NewMessage } from '../db/message-verbs';
import type { MessageRow } from '../db/schema';
import { getSession, updateSession } from '../db/session-verbs';
import { onTablesChanged } from '../db/watch';
import { createSession } from '../sessions/session-lifecycle';
import { contextApi } from './context-api';
import { costText } from './context-rows';
import { NO_COMPACTION_STATE } from '../db/schema';
import { anchoredTotal } from './anchor-estimate';
import { boundSession, estimateSession, type RequestExtras } from './estimate-session';
import { sessionTallies } from './session-tallies';

type Middleware = Parameters<PalimpsestDb['use']>[0];

let db: PalimpsestDb;
/** While true, every write of message rows fails (a full disk). */
let failWrites = false;
/** What the estimate read from the messages table: a query (a range or index read) or the keys it got. */
let reads: Array<'query' | [string, number][]>;

/** Records reads of message rows, below everything the app does. */
const readRecorder: Middleware = {
	stack: 'dbcore',
	name: 'read-recorder',
	create: (down) => ({
		...down,
		table: (name) => {
			const table = down.table(name);
			if (name !== 'messages') return table;
			return {
				...table,
				get: (req) => (reads.push([req.key]), table.get(req)),
				getMany: (req) => (reads.push([...req.keys]), table.getMany(req)),
				query: (req) => (reads.push('query'), table.query(req)),
				openCursor: (req) => (reads.push('query'), table.openCursor(req)),
				mutate: (req) => (failWrites ? Promise.reject(new DOMException('The disk is full.', 'QuotaExceededError')) : table.mutate(req))
			};
		}
	})
};

beforeEach(() => {
	reads = [];
	failWrites = false;
	db = new PalimpsestDb(`estimate-${crypto.randomUUID()}`);
	db.use(readRecorder);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

/** The worker's own counting, recording the texts each call had to count. */
function recordingCounter() {
	const counted: string[][] = [];
	return {
		counted,
		countTexts(texts: string[], model: string) {
			counted.push(texts);
			return contextApi.countTexts(texts, model);
		}
	};
}

/** The estimate from nothing: every live row read and counted again, nothing remembered. */
async function fullRecount(sessionId: string, model: string, extras: RequestExtras): Promise<number> {
	const rows = contextRows(await listActiveMessages(db, sessionId));
	const estimate = await contextApi.estimate({ ...extras, messages: rows.map((row) => ({ content: costText(row) })) }, model);
	return anchoredTotal(estimate, (await getSession(db, sessionId))?.token_ratio);
}

const message = (id: string, role: 'user' | 'assistant', content: string, extra: Partial<NewMessage> = {}): NewMessage => ({
	id,
	role,
	content,
	kind: 'message',
	status: 'complete',
	created_at: 1,
	...extra
});

const MODEL = 'gpt-4o';
const EXTRAS: RequestExtras = { systemPrompt: 'You are terse.', reservedOutput: 1000 };
const FIRST = [message('u1', 'user', 'How do I count tokens?'), message('a1', 'assistant', '東京は日本の首都です。{"count": 12}'), message('u2', 'user', 'And in a worker?')];

async function newSession(rows: NewMessage[] = FIRST, model = MODEL): Promise<string> {
	const { id } = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'offline', model });
	if (rows.length) await appendMessages(db, id, rows);
	return id;
}

/** Estimates, waits until the counts are stored, and checks the total against a full recount. */
async function estimateAndCheck(counter: ReturnType<typeof recordingCounter>, id: string, model = MODEL, extras = EXTRAS) {
	reads = [];
	const estimate = await estimateSession(db, counter, id, model, extras);
	const readBeforeStore = [...reads];
	await estimate?.stored;
	const readWithStore = [...reads];
	expect(estimate?.total).toBe(await fullRecount(id, model, extras));
	return { estimate, readBeforeStore, readWithStore };
}

/** The texts counted by the last call, without the system prompt (counted by every call). */
const lastCounted = (counter: ReturnType<typeof recordingCounter>) => counter.counted.at(-1)?.filter((text) => text !== EXTRAS.systemPrompt) ?? [];

describe('estimateSession', () => {
	it('counts an attached image by the published rule of the wire format it goes in, and nothing where no image is sent', async () => {
		const image = { type: 'image' as const, id: 'i1', name: 'photo.png', mimeType: 'image/png', size: 10, width: 1092, height: 1092 };
		const id = await newSession([message('u1', 'user', 'What is this?', { attachments: [image] })]);
		const total = async (extras: RequestExtras) => {
			const estimate = (await estimateSession(db, recordingCounter(), id, MODEL, extras))!;
			await estimate.stored;
			return estimate.total;
		};
		const none = await total(EXTRAS);
		expect(await total({ ...EXTRAS, imageApi: 'offline' })).toBe(none);
		// Anthropic: 1092 × 1092 / 750, rounded up. OpenAI: 768 × 768 is 4 tiles: 85 + 4 × 170.
		expect((await total({ ...EXTRAS, imageApi: 'anthropic' })) - none).toBe(1590);
		expect((await total({ ...EXTRAS, imageApi: 'chat-completions' })) - none).toBe(765);
	});

	it('counts each live row once, stores its count on the row and the total on the session', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		const { estimate } = await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual(FIRST.map((row) => row.content));
		const stored = await listMessages(db, id);
		expect(stored.map((row) => [row.tokens, row.encoding])).toEqual(FIRST.map((row) => [o200k.encode(row.content).length, 'o200k_base']));
		expect((await getSession(db, id))?.token_estimate).toBe(estimate?.total);
	});

	it('after an append, counts only the new message and reads no old row', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		const { estimate: before } = await estimateAndCheck(counter, id);
		await appendMessages(db, id, [message('a2', 'assistant', 'Yes, in a Web Worker.')]);
		const { estimate: after, readBeforeStore, readWithStore } = await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual(['Yes, in a Web Worker.']);
		// The estimate itself reads nothing; storing the count reads back only the new row (to check its text).
		expect(readBeforeStore).toEqual([]);
		expect(readWithStore).toEqual([[[id, 3]]]);
		expect(after?.total).toBe((before?.total ?? 0) + o200k.encode('Yes, in a Web Worker.').length + 4);
		expect((await listMessages(db, id)).at(-1)?.tokens).toBe(o200k.encode('Yes, in a Web Worker.').length);
	});

	it('a count that could not be stored is kept, and stored by the next estimate', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		failWrites = true;
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const failed = await estimateSession(db, counter, id, MODEL, EXTRAS);
		await expect(failed?.stored).rejects.toThrow('The disk is full.');
		expect(warn).toHaveBeenCalledWith('Could not store the token counts', expect.anything());
		warn.mockRestore();
		expect((await listMessages(db, id)).map((row) => row.tokens)).toEqual([undefined, undefined, undefined]);
		failWrites = false;
		const { estimate } = await estimateAndCheck(counter, id);
		expect(estimate?.total).toBe(failed?.total);
		expect(lastCounted(counter)).toEqual([]);
		expect((await listMessages(db, id)).map((row) => row.tokens)).toEqual(FIRST.map((row) => o200k.encode(row.content).length));
	});

	it('a count made in memory is stored after a reload, and nothing is counted twice', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		sessionTallies(db).clear();
		await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual([]);
	});

	it('leaves a streaming answer out while its checkpoints rewrite it, then counts its final text once', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		const [answer] = await appendMessages(db, id, [message('a2', 'assistant', '', { status: 'streaming' })]);
		const key: [string, number] = [id, answer.seq];
		for (const text of ['Yes', 'Yes, in a', 'Yes, in a Web Worker']) {
			await updateMessage(db, key, { content: text });
			await estimateAndCheck(counter, id);
			expect(lastCounted(counter)).toEqual([]);
		}
		await updateMessage(db, key, { content: 'Yes, in a Web Worker.', status: 'complete' });
		await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual(['Yes, in a Web Worker.']);
	});

	it('follows a compaction: rows leave the context and a summary enters at a fractional seq', async () => {
		const id = await newSession([...FIRST, message('a2', 'assistant', 'Use a worker.'), message('u3', 'user', 'Thanks.')]);
		const counter = recordingCounter();
		const { estimate: before } = await estimateAndCheck(counter, id);
		await commitCompaction(db, {
			sessionId: id,
			compactionId: 'c1',
			removed: [0, 1, 2],
			inserted: [{ before: 3, row: { id: 's1', role: 'user', kind: 'summary', status: 'complete', created_at: 2, content: 'Summary: counting tokens in a worker.' } }],
			compaction: NO_COMPACTION_STATE,
			tokenEstimate: 0,
			now: 2
		});
		const { estimate: after, readBeforeStore } = await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual(['Summary: counting tokens in a worker.']);
		expect(readBeforeStore).toEqual([]);
		expect(after?.total).toBeLessThan(before?.total ?? 0);
		// The summary sits where the removed rows were.
		expect((await listActiveMessages(db, id)).map((row) => row.seq)).toEqual([2.5, 3, 4]);
	});

	it('follows Retry dropping the last answer, and a deleted session has no estimate', async () => {
		const id = await newSession([...FIRST, message('a2', 'assistant', 'Use a worker.')]);
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		await deleteMessages(db, id, [3]);
		await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual([]);
		await commitDeletion(db, { op_id: 'op1', reason: 'delete', session_id: id, at: 3, remove: [id] });
		expect(await estimateSession(db, counter, id, MODEL, EXTRAS)).toBeNull();
	});

	it('counts again in the encoding of another model, and follows the provider ratio', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		await estimateAndCheck(counter, id, 'gpt-4');
		expect(lastCounted(counter)).toEqual(FIRST.map((row) => row.content));
		expect((await listMessages(db, id)).map((row) => row.encoding)).toEqual(['cl100k_base', 'cl100k_base', 'cl100k_base']);
		await updateSession(db, id, { token_ratio: 1.25 });
		await estimateAndCheck(counter, id, 'gpt-4');
		expect(lastCounted(counter)).toEqual([]);
	});

	it('gives parts that add up to the total, also on the scale of the provider’s own count', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		const extras = { ...EXTRAS, toolSchemas: [{ name: 'search', parameters: { type: 'object' } }], injected: ['Conventions: tabs, not spaces.'] };
		for (const ratio of [undefined, 0.996, 1.137, 1.9]) {
			await updateSession(db, id, { token_ratio: ratio });
			const { estimate } = await estimateAndCheck(counter, id, MODEL, extras);
			const { total, ...parts } = estimate!.parts;
			expect(Object.values(parts).reduce((a, b) => a + b, 0), `ratio ${ratio}`).toBe(total);
			expect(total).toBe(estimate!.total);
		}
	});

	it('counts the system prompt, tool schemas and plugin context of each call as given', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		await estimateAndCheck(counter, id, MODEL, { ...EXTRAS, systemPrompt: 'You are a careful assistant who answers in French.' });
		await estimateAndCheck(counter, id, MODEL, { ...EXTRAS, toolSchemas: [{ name: 'search', parameters: { type: 'object' } }] });
		await estimateAndCheck(counter, id, MODEL, { ...EXTRAS, injected: ['Conventions: tabs, not spaces.', ''] });
		await estimateAndCheck(counter, id, MODEL, { systemPrompt: '' });
	});

	it('follows writes through another connection of this tab without reading them back', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		const other = new PalimpsestDb(db.name);
		try {
			await appendMessages(other, id, [message('a2', 'assistant', 'Written elsewhere.')]);
			await deleteMessages(other, id, [0]);
			const { readBeforeStore } = await estimateAndCheck(counter, id);
			expect(readBeforeStore).toEqual([]);
			expect(lastCounted(counter)).toEqual(['Written elsewhere.']);
		} finally {
			other.close();
		}
	});

	it("follows another tab's write once its notice arrives, reading only the rows it names", async () => {
		const id = await newSession();
		const counter = recordingCounter();
		await estimateAndCheck(counter, id);
		// Another tab: a connection this tab's Dexie knows nothing of, and the notice its Dexie sends.
		const rewritten: MessageRow = { ...(await listMessages(db, id))[1], content: 'Rewritten in another tab.', tokens: undefined, encoding: undefined };
		await rawPut(db.name, rewritten);
		const noticed = new Promise<void>((resolve) => {
			const stop = onTablesChanged(db, ['messages'], () => (stop(), resolve()));
		});
		const channel = new BroadcastChannel('x-storagemutated-1');
		channel.postMessage({ [`idb://${db.name}/messages/`]: { from: [id, 1], to: [id, 1], d: 1 } });
		channel.close();
		await noticed;
		const { readBeforeStore } = await estimateAndCheck(counter, id);
		expect(readBeforeStore).toEqual(['query']);
		expect(lastCounted(counter)).toEqual(['Rewritten in another tab.']);
	});

	it('bounds the next request without counting: never below the estimate, and exact once everything is counted', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		const extras = { ...EXTRAS, toolSchemas: [{ name: 'search' }], injected: ['Conventions: tabs.'] };
		const first = await boundSession(db, id, MODEL, extras);
		const { estimate } = await estimateAndCheck(counter, id, MODEL, extras);
		expect(first).toBeGreaterThanOrEqual(estimate?.total ?? Infinity);
		await appendMessages(db, id, [message('a2', 'assistant', '東京は日本の首都です。{"count": 12} and more.')]);
		const counted = counter.counted.length;
		const bound = await boundSession(db, id, MODEL, extras);
		expect(counter.counted).toHaveLength(counted);
		const { estimate: after } = await estimateAndCheck(counter, id, MODEL, extras);
		expect(bound).toBeGreaterThanOrEqual(after?.total ?? Infinity);
		// Counted now: only the texts around the messages are still bounded by their length.
		// Each tool is counted as its own JSON.
		const texts = [extras.systemPrompt, ...extras.toolSchemas.map((tool) => JSON.stringify(tool)), extras.injected[0]];
		const around = texts.reduce((sum, text) => sum + text.length, 0);
		const exactAround = texts.reduce((sum, text) => sum + o200k.encode(text).length, 0);
		expect(await boundSession(db, id, MODEL, extras)).toBe((after?.total ?? 0) - exactAround + around);
		expect(await boundSession(db, 'gone', MODEL, extras)).toBe(Infinity);
	});

	it('stays equal to a full recount when estimates and writes overlap', async () => {
		const id = await newSession();
		const counter = recordingCounter();
		const writes = Array.from({ length: 6 }, (_, i) => appendMessages(db, id, [message(`x${i}`, 'user', `Message ${i} of a busy session.`)]));
		const estimates = Array.from({ length: 6 }, () => estimateSession(db, counter, id, MODEL, EXTRAS));
		await Promise.all([...writes, ...estimates.map(async (estimate) => (await estimate)?.stored)]);
		await estimateAndCheck(counter, id);
		expect(lastCounted(counter)).toEqual([]);
	});
});

/** Writes a row through a plain IndexedDB connection, as another tab would. */
async function rawPut(name: string, row: MessageRow): Promise<void> {
	const open = indexedDB.open(name);
	const connection = await new Promise<IDBDatabase>((resolve, reject) => {
		open.onsuccess = () => resolve(open.result);
		open.onerror = () => reject(open.error);
	});
	const tx = connection.transaction('messages', 'readwrite');
	tx.objectStore('messages').put(row);
	await new Promise((resolve, reject) => {
		tx.oncomplete = resolve;
		tx.onerror = () => reject(tx.error);
	});
	connection.close();
}
