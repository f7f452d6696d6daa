import 'fake-indexeddb/auto';
import { expose } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import type { MessageRow, SessionRow } from '../db/schema';
import { createSearchApi } from './search-api';
import { createSearchClientFromPort, type SearchClient } from './search-client';
import { testPosition } from '../db/test-position';

const PROFILE = `search-${crypto.randomUUID()}`;
let db: PalimpsestDb;
let ports: MessagePort[] = [];
afterEach(async () => {
	for (const port of ports) port.close();
	ports = [];
	db.close();
	await openProfileDb(PROFILE).delete();
});

function session(id: string, title: string, extra: Partial<SessionRow> = {}): SessionRow {
	return {
		id, profile: PROFILE, title, title_source: 'user', session_key: `web:${PROFILE}:${id}`, created_at: 1, last_activity_at: 1,
		ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline',
		model: 'offline-mini', message_count: 1, token_estimate: 0, next_seq: 1, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 },
		...extra
	};
}

function message(session_id: string, seq: number, content: string, extra: Partial<MessageRow> = {}): MessageRow {
	return { session_id, seq, position: testPosition(seq), id: `${session_id}-${seq}`, role: 'user', content, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1, ...extra };
}

function client(): SearchClient {
	const channel = new MessageChannel();
	ports.push(channel.port1, channel.port2);
	expose(createSearchApi(), channel.port1);
	return createSearchClientFromPort(channel.port2);
}

const found = async (search: SearchClient, query: string) => (await search.search({ profile: PROFILE, query })).ids;

describe('the search worker API, over a message port', () => {
	it('builds the index, ranks matches with a snippet, and leaves plugin context out', async () => {
		db = openProfileDb(PROFILE);
		await db.sessions.bulkAdd([session('a', 'Canal trip', { last_activity_at: 5 }), session('b', 'Bike repair', { archived: 1 })]);
		const rows = Array.from({ length: 600 }, (_, seq) => message('b', seq, seq === 599 ? 'We reached the canal lock at dawn' : 'spokes and chains'));
		rows[3] = message('b', 3, 'spokes', { injected: [{ plugin_id: 'p', plugin_name: 'P', text: 'secretword' }] });
		await db.messages.bulkAdd(rows);
		const search = client();
		await search.settle(PROFILE);

		const answer = await search.search({ profile: PROFILE, query: 'CANAL' });
		expect(answer.ids.sort()).toEqual(['a', 'b']);
		const hit = answer.hits.find((entry) => entry.sessionId === 'b')!;
		expect(hit).toMatchObject({ seq: 599, archived: true, title: 'Bike repair' });
		expect(hit.snippet!.text).toBe('We reached the canal lock at dawn');
		expect(hit.snippet!.marks).toEqual([[15, 20]]);
		// The last word is a prefix while typing; CJK and accents need nothing special here.
		expect(await found(search, 'reach')).toEqual(['b']);
		expect(await found(search, 'reach ')).toEqual([]);
		expect(await found(search, 'secretword')).toEqual([]);
	});

	it('follows commits: new and edited rows, renames, removed rows and deleted sessions', async () => {
		db = openProfileDb(PROFILE);
		await db.sessions.bulkAdd([session('a', 'Alpha'), session('b', 'Bravo')]);
		await db.messages.bulkAdd([message('a', 0, 'first words'), message('b', 0, 'other words'), message('b', 1, 'doomed quokka')]);
		const search = client();
		await search.settle(PROFILE);
		expect(await found(search, 'quokka')).toEqual(['b']);

		await db.messages.put(message('a', 1, 'a fresh zeppelin answer'));
		await db.sessions.update('a', { title: 'Renamed voyage', next_seq: 2 });
		await db.messages.delete(['b', 1]);
		await search.settle(PROFILE);
		expect(await found(search, 'zeppelin')).toEqual(['a']);
		expect(await found(search, 'voyage')).toEqual(['a']);
		expect(await found(search, 'alpha')).toEqual([]);
		expect(await found(search, 'quokka')).toEqual([]);

		await db.transaction('rw', db.sessions, db.messages, async () => {
			await db.messages.where('[session_id+seq]').between(['b', -Infinity], ['b', Infinity]).delete();
			await db.sessions.delete('b');
		});
		await search.settle(PROFILE);
		expect(await found(search, 'words')).toEqual(['a']);
		expect((await search.status(PROFILE)).documents).toBe(3);
	});

	it('saves the index, catches up with what changed while closed, and rebuilds a damaged one', async () => {
		db = openProfileDb(PROFILE);
		await db.sessions.bulkAdd([session('a', 'Alpha'), session('b', 'Bravo')]);
		await db.messages.bulkAdd([message('a', 0, 'kept harbour'), message('b', 0, 'gone lighthouse')]);
		let search = client();
		await search.settle(PROFILE, true);
		await search.close();
		expect(await db.search_index.count()).toBe(1);

		// Changed with no worker running: a new session, one removed.
		await db.sessions.add(session('c', 'Charlie'));
		await db.messages.add(message('c', 0, 'late arrival'));
		await db.sessions.delete('b');
		search = client();
		const status = await search.settle(PROFILE);
		expect(status.lastCatchUp?.sessions).toBe(1);
		expect(await found(search, 'arrival')).toEqual(['c']);
		expect(await found(search, 'lighthouse')).toEqual([]);
		expect(await found(search, 'harbour')).toEqual(['a']);
		await search.close();

		await db.search_index.put({ key: 'messages', data: '{"format":1,"index":{"broken":', at: 1 });
		search = client();
		await search.settle(PROFILE);
		expect(await found(search, 'harbour')).toEqual(['a']);
		await search.close();
	});
});
