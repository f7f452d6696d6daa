// Keep in context pressed on a message: it is kept at once, unless what is kept would then pass
// half the model's window: then the user is asked, and Cancel keeps nothing. Pressed again, it
// lets go without asking.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { filler, useCompactionEnv, type CompactionEnv } from '../../agent/compaction-fixtures';
import { listActiveMessages } from '../../db/compaction-verbs';
import { appendMessages } from '../../db/message-verbs';
import { getSession } from '../../db/session-verbs';
import type { ConfirmRequest } from '../shared/confirm.svelte';
import { describeKept } from './kept-words';
import { toggleKeep, type KeepContext } from './keep-in-context';

const setup = useCompactionEnv('keep-in-context-state');
let env: CompactionEnv;
let id: string;
let asked: ConfirmRequest[];
let answer: boolean;
beforeEach(async () => {
	env = setup.current();
	id = await env.newSession();
	asked = [];
	answer = false;
	// No counts stored yet: what a press measures is counted in the worker.
	await appendMessages(env.db, id, [
		{ id: 'short', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: 'Always answer in French.' },
		{ id: 'long', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: filler(1, 600) }
	]);
});

async function press(messageId: string, windowTokens = 1000): Promise<boolean> {
	const rows = await listActiveMessages(env.db, id);
	const context: KeepContext = {
		services: { db: env.db, worker: env.counter, windowFor: () => windowTokens },
		session: (await getSession(env.db, id))!,
		rows,
		confirm: async (request) => (asked.push(request), answer)
	};
	return toggleKeep(context, rows.find((row) => row.id === messageId)!);
}

const pinnedIds = async () => (await listActiveMessages(env.db, id)).filter((row) => row.pinned).map((row) => row.id);

describe('Keep in context', () => {
	it('keeps a message at once while what is kept stays within half the window, and lets it go when pressed again', async () => {
		expect(await press('short')).toBe(true);
		expect(asked).toEqual([]);
		expect(await pinnedIds()).toEqual(['short']);
		expect(describeKept(await listActiveMessages(env.db, id))).toMatch(/^1 message, \d+ tokens, which compaction leaves as it is$/);
		expect(await press('short')).toBe(false);
		expect(await pinnedIds()).toEqual([]);
		expect(describeKept(await listActiveMessages(env.db, id))).toBe('');
	});

	it('asks before what is kept passes half the window; Cancel keeps nothing, the confirming button keeps it', async () => {
		expect(await press('long')).toBe(false);
		expect(asked).toHaveLength(1);
		expect(asked[0]).toMatchObject({ title: 'Keep this message in context?', confirmLabel: 'Keep in context' });
		expect(asked[0].message).toMatch(/about [\d,]+ tokens, more than half of the 1,000-token window of offline-mini/);
		expect(await pinnedIds()).toEqual([]);
		answer = true;
		expect(await press('long')).toBe(true);
		expect(await pinnedIds()).toEqual(['long']);
		// With a window large enough, nothing is asked.
		await press('long');
		asked = [];
		expect(await press('long', 100_000)).toBe(true);
		expect(asked).toEqual([]);
	});

	it('counts what is already kept: a short message asks once the kept ones pass half the window with it', async () => {
		answer = true;
		await press('long');
		asked = [];
		answer = false;
		expect(await press('short')).toBe(false);
		expect(asked).toHaveLength(1);
		expect(await pinnedIds()).toEqual(['long']);
	});
});
