import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PalimpsestDb } from '../../db/database';
import type { SearchAnswer, SearchCall } from '../../sessions/search-api';
import type { SearchClient } from '../../sessions/search-client';
import { SessionSearch } from './session-search.svelte';

let db: PalimpsestDb;
afterEach(async () => {
	db.close();
	await db.delete();
});

/** A search worker stand-in: answers, or fails, as each test says. */
function searchWith(answer: (call: SearchCall) => Promise<SearchAnswer>): SessionSearch {
	db = new PalimpsestDb(`search-${crypto.randomUUID()}`);
	const client = { search: answer } as unknown as SearchClient;
	return new SessionSearch({ db, profile: 'default', client: () => client });
}

describe('the sidebar search', () => {
	it('says why a search failed, and the next answer clears it', async () => {
		let fail = true;
		const search = searchWith(async () => {
			if (fail) throw new Error('The search worker could not start.');
			return { ids: ['a'], hits: [], progress: null, ms: 1 };
		});
		search.set('harbour');
		await vi.waitFor(() => expect(search.error).toBe('Search failed: The search worker could not start.'));
		expect(search.scanning).toBe(false);
		fail = false;
		search.set('harbours');
		await vi.waitFor(() => expect(search.ranked).toEqual(['a']));
		expect(search.error).toBe('');
	});

	it('keeps only the answer to the latest query', async () => {
		let answerSlow = () => {};
		const slowAsked = new Promise<void>((resolve) => (answerSlow = resolve));
		const search = searchWith(async ({ query }) => {
			if (query === 'slow') await slowAsked;
			return { ids: [query], hits: [], progress: null, ms: 1 };
		});
		search.set('slow');
		search.set('fast');
		await vi.waitFor(() => expect(search.ranked).toEqual(['fast']));
		answerSlow();
		await slowAsked;
		await Promise.resolve();
		expect(search.ranked).toEqual(['fast']);
	});
});
