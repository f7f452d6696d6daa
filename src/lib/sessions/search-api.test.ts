import 'fake-indexeddb/auto';
import { expose } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import type { SessionRow } from '../db/schema';
import { createSearchApi } from './search-api';
import { createSearchClientFromPort } from './search-client';

const PROFILE = `search-${crypto.randomUUID()}`;
let db: PalimpsestDb;
afterEach(async () => {
	db.close();
	await openProfileDb(PROFILE).delete();
});

function session(id: string, title: string): SessionRow {
	return {
		id, profile: PROFILE, title, title_source: 'user', session_key: `web:${PROFILE}:${id}`, created_at: 1, last_activity_at: 1,
		ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline',
		model: 'offline-mini', message_count: 1, token_estimate: 0, next_seq: 1, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
	};
}

describe('the search worker API, over a message port', () => {
	it('answers titles from its cache until the page says sessions changed; a newer call stops an older message scan', async () => {
		db = openProfileDb(PROFILE);
		await db.sessions.bulkAdd([session('a', 'Canal trip'), session('b', 'Bike repair')]);
		const messages = Array.from({ length: 5000 }, (_, seq) => ({
			session_id: 'b', seq, id: `b-${seq}`, role: 'user' as const, content: seq === 4999 ? 'a canal at the very end' : 'spokes',
			status: 'complete' as const, kind: 'message' as const, active: 1 as const, compacted_by: null, created_at: 1
		}));
		await db.messages.bulkAdd(messages);
		const channel = new MessageChannel();
		expose(createSearchApi(), channel.port1);
		const client = createSearchClientFromPort(channel.port2);

		const call = { profile: PROFILE, query: 'CANAL', titlesVersion: 1 };
		expect(await client.searchTitles(call)).toEqual(['a']);
		expect(await client.searchMessages(call, ['a'])).toEqual(['b']);

		// A rename the page has not reported yet is not seen; once reported, it is.
		await db.sessions.update('b', { title: 'Canal bikes' });
		expect(await client.searchTitles(call)).toEqual(['a']);
		expect((await client.searchTitles({ ...call, titlesVersion: 2 })).sort()).toEqual(['a', 'b']);

		// The scan of 5,000 rows takes several chunks; a title search sent meanwhile stops it.
		const stale = client.searchMessages({ ...call, query: 'the very end' });
		await client.searchTitles({ ...call, query: 'bike', titlesVersion: 2 });
		expect(await stale).toBeNull();
		expect(await client.searchMessages({ ...call, query: 'the very end' })).toEqual(['b']);
		channel.port1.close();
		channel.port2.close();
	});
});
