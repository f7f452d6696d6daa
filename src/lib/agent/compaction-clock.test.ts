import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { appendMessages } from '../db/message-verbs';
import { liveMarkers } from '../db/live-markers';
import { listActiveMessages } from '../db/compaction-verbs';
import { createOfflineProvider } from '../providers/offline';
import { compactSession } from './compact-session';
import { filler, seedConversation, useCompactionEnv } from './compaction-fixtures';

const setup = useCompactionEnv('compaction-clock');
const summarizer = { provider: createOfflineProvider({ delayMs: 0 }), model: 'offline-mini', windowTokens: 32_000 };
const HOUR = 3_600_000;

it('a compaction made after one from a device whose clock runs hours ahead is the latest, the one Undo takes back', async () => {
	const env = setup.current();
	const id = await env.newSession();
	const now = Date.now();
	const call = { id: 'old', name: 'fetch_page', arguments: '{}' };
	await appendMessages(env.db, id, [
		{ id: 'q', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: 'Read the page' },
		{ id: 'c', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: '', tool_calls: [call] },
		{ id: 'r', role: 'tool', kind: 'message', status: 'complete', created_at: 1, content: filler(5, 1500), tool_call_id: 'old' },
		{ id: 'a', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: 'Read.' }
	]);
	await seedConversation(env.db, id, 12);
	// The tool results were pruned (then synced here) by a device six hours ahead...
	const ahead = await compactSession(env.deps({ summarizer, now: () => now + 6 * HOUR }), { sessionId: id, reason: 'manual', kind: 'prune_tool_results' });
	expect(ahead.status).toBe('compacted');
	// ...and this device summarizes the conversation afterwards, by its own clock hours before.
	const here = await compactSession(env.deps({ summarizer, now: () => now }, { inPlace: true }), { sessionId: id, reason: 'manual' });
	expect(here.status).toBe('compacted');

	const markers = liveMarkers(await listActiveMessages(env.db, id));
	expect(markers.map((row) => row.compaction!.kind)).toEqual(['prune_tool_results', 'summarize']);
	// The summary is the latest: just after the pruning's time, not hours before it.
	expect(markers.map((row) => row.compaction!.at)).toEqual([now + 6 * HOUR, now + 6 * HOUR + 1]);
});
