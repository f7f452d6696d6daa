import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dexie, PalimpsestDb } from '../../db/database';
import type { SessionRow } from '../../db/schema';
import type { SearchClient } from '../../sessions/search-client';
import type { Services } from '../app/services';
import { SessionsState } from './sessions.svelte';

let db: PalimpsestDb;
let stop = () => {};
afterEach(async () => {
	stop();
	db.close();
	await Dexie.delete(db.name);
});

function session(id: string, last: number): SessionRow {
	return {
		id, profile: 'default', title: id, title_source: 'user', session_key: `web:default:${id}`, created_at: 1, last_activity_at: last,
		ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline',
		model: 'offline-mini', message_count: 0, token_estimate: 0, next_seq: 0, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
	};
}

async function listOf(count: number): Promise<SessionsState> {
	db = new PalimpsestDb(`select-all-${crypto.randomUUID()}`);
	await db.sessions.bulkAdd(Array.from({ length: count }, (_, i) => session(`s${i}`, count - i)));
	const services = { db, profile: { name: 'default' } } as unknown as Services;
	const client = { search: async () => ({ ids: [], hits: [], progress: null, ms: 0 }), prepare: async () => {} } as unknown as SearchClient;
	const open = () => ({ sessionId: null, finalizeOpen: () => {}, leave: async () => {} });
	return new SessionsState(services, open, () => client);
}

describe('Select all', () => {
	it('pressed before the list has read every id, selects every session once they come', async () => {
		const sessions = await listOf(120);
		stop = sessions.start();
		sessions.setSelecting(true);
		sessions.selectAll();
		expect(sessions.loaded).toBe(false);
		await vi.waitFor(() => expect(sessions.loaded).toBe(true));
		expect(sessions.selected.size).toBe(120);
		expect(sessions.selectedIds()).toHaveLength(120);
	});

	it('cleared before the ids come, selects nothing more', async () => {
		const sessions = await listOf(120);
		stop = sessions.start();
		sessions.setSelecting(true);
		sessions.selectAll();
		sessions.clearSelection();
		await vi.waitFor(() => expect(sessions.loaded).toBe(true));
		expect(sessions.selected.size).toBe(0);
	});
});
