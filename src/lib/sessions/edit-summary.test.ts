// Edit summary: the next request carries the user's text instead of the model's; the original
// stays in the history (out of the context); the marker says it was edited; an undo afterwards
// brings back the compacted messages, not the original summary.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { compactSession } from '../agent/compact-session';
import { say, scripted, seedConversation, useCompactionEnv, type CompactionEnv } from '../agent/compaction-fixtures';
import { runTurn } from '../agent/run-turn';
import { listActiveMessages } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import { listMessages } from '../db/message-verbs';
import { editSummary, undoCompaction } from './undo-compaction';

const setup = useCompactionEnv('edit-summary');
let env: CompactionEnv;
beforeEach(() => {
	env = setup.current();
});

describe('Edit summary', () => {
	it('sends the edited text from the next request on, keeps the original, and marks the marker edited', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		const before = contextRows(await listActiveMessages(env.db, id)).map((row) => row.content);
		expect((await compactSession(env.deps(), { sessionId: id, reason: 'manual' })).status).toBe('compacted');
		const original = (await listActiveMessages(env.db, id)).find((row) => row.kind === 'summary')!;

		await editSummary(env.sessions, id, original.compaction!.id, 'Edited: the user studies rivers and harbours.');
		const { provider, requests } = scripted(() => say('Fine.'));
		await runTurn({ db: env.db, provider, model: 'offline-mini', profile: 'default', platform: 'web', systemPrompt: 'SYS', checkpointMs: 0 }, { sessionId: id, text: 'Go on' });
		const sent = requests[0].messages.map((m) => m.content);
		expect(sent).toContain('Edited: the user studies rivers and harbours.');
		expect(sent).not.toContain(original.content);

		const rows = await listMessages(env.db, id);
		expect(rows.find((row) => row.id === original.id)).toMatchObject({ active: 0, content: original.content });
		const edited = rows.find((row) => row.active === 1 && row.kind === 'summary')!;
		expect(edited.compaction).toMatchObject({ id: original.compaction!.id });
		expect(edited.compaction!.edited_at).toBeGreaterThan(0);
		expect(edited.seq).toBeGreaterThan(original.seq);

		await undoCompaction(env.sessions, id, original.compaction!.id);
		const after = contextRows(await listActiveMessages(env.db, id)).map((row) => row.content);
		expect(after.slice(0, before.length)).toEqual(before);
		expect(after).not.toContain(original.content);
	});

	it('keeps the edited text word for word through later compactions, an undo and a harder compaction after it', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		await compactSession(env.deps(), { sessionId: id, reason: 'manual' });
		const first = (await listActiveMessages(env.db, id)).find((row) => row.kind === 'summary')!;
		// Free text, without the summary's headings: nothing a summarizer would pick up as its own.
		const text = 'MY NOTES: the user studies rivers and harbours.\nKeep the Lisbon plan exactly as agreed.';
		await editSummary(env.sessions, id, first.compaction!.id, text);
		const editedRow = async () => (await listActiveMessages(env.db, id)).filter((row) => row.kind === 'summary' && row.content === text);
		const sentWith = async () => {
			const { provider, requests } = scripted(() => say('Fine.'));
			await runTurn({ db: env.db, provider, model: 'offline-mini', profile: 'default', platform: 'web', systemPrompt: 'SYS', checkpointMs: 0 }, { sessionId: id, text: 'Go on' });
			return requests[0].messages.map((m) => m.content);
		};

		// A later compaction updates the summary of what came since, after the user's own.
		await seedConversation(env.db, id, 8);
		const second = await compactSession(env.deps(), { sessionId: id, reason: 'manual' });
		expect(second.status).toBe('compacted');
		expect(await editedRow()).toHaveLength(1);
		const summaries = contextRows(await listActiveMessages(env.db, id)).filter((row) => row.kind === 'summary');
		expect(summaries.map((row) => row.content === text)).toEqual([true, false]);
		expect(await sentWith()).toContain(text);

		// Undone, the context is long again; the next compaction, however hard, still keeps it.
		const latest = summaries[1].compaction!.id;
		await undoCompaction(env.sessions, id, latest);
		expect(await editedRow()).toHaveLength(1);
		const harder = await compactSession(env.deps(), { sessionId: id, reason: 'overflow', tailTokens: 0, minimalTail: true });
		expect(harder.status).toBe('compacted');
		expect(await editedRow()).toHaveLength(1);
		expect(await sentWith()).toContain(text);
	});

	it('refuses an empty summary and changes nothing', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		await compactSession(env.deps(), { sessionId: id, reason: 'manual' });
		const rows = await listMessages(env.db, id);
		const marker = rows.find((row) => row.compaction)!;
		await expect(editSummary(env.sessions, id, marker.compaction!.id, '   ')).rejects.toThrow('cannot be empty');
		expect(await listMessages(env.db, id)).toEqual(rows);
	});
});
