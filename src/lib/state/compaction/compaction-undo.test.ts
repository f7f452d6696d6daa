// Before Undo compaction brings back more than the model's window holds, the user is asked,
// with the numbers and what happens next; an undo that fits asks nothing. The numbers are those
// of the rows the undo really leaves.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { compactSession } from '../../agent/compact-session';
import { seedConversation, useCompactionEnv, type CompactionEnv } from '../../agent/compaction-fixtures';
import { contextApi } from '../../context/context-api';
import { estimateMessages } from '../../context/estimate-session';
import { listActiveMessages } from '../../db/compaction-verbs';
import { contextRows } from '../../db/context-rows';
import { listMessages } from '../../db/message-verbs';
import type { MessageRow } from '../../db/schema';
import { undoWarning } from './compaction-undo';
import type { Services } from '../app/services';

const setup = useCompactionEnv('undo-warning');
let env: CompactionEnv;
beforeEach(() => {
	env = setup.current();
});

const MODEL = 'offline-mini';

/** The next request's cost with these rows as the context, as the meter counts it. */
async function cost(rows: MessageRow[]): Promise<number> {
	return (await contextApi.estimate({ messages: estimateMessages(contextRows(rows), MODEL), systemPrompt: 'SYS', reservedOutput: 400 }, MODEL)).total;
}

function services(windowTokens: number): Services {
	return {
		sessionContext: () => env.sessions,
		estimateContext: async (_id: string, rows: MessageRow[]) => ({ model: MODEL, total: await cost(rows), windowTokens })
	} as unknown as Services;
}

async function compacted(): Promise<{ id: string; marker: MessageRow; before: number; after: number }> {
	const id = await env.newSession();
	await seedConversation(env.db, id, 12);
	const before = await cost(await listActiveMessages(env.db, id));
	expect((await compactSession(env.deps(), { sessionId: id, reason: 'manual' })).status).toBe('compacted');
	const rows = await listActiveMessages(env.db, id);
	return { id, marker: rows.find((row) => row.compaction)!, before, after: await cost(rows) };
}

describe('Undo compaction past the window', () => {
	it('asks first, naming the tokens, the window and that the next message compacts again', async () => {
		const { id, marker, before, after } = await compacted();
		const windowTokens = Math.floor((before + after) / 2);
		const rows = await listMessages(env.db, id);
		const warning = await undoWarning(services(windowTokens), marker);
		expect(warning).toMatchObject({ title: 'Undo compaction?', confirmLabel: 'Undo compaction' });
		expect(warning!.message).toContain(`about ${before.toLocaleString('en')} tokens, more than the ${windowTokens.toLocaleString('en')}-token window of ${MODEL}`);
		expect(warning!.message).toContain('Your next message will then compact the conversation again');
		expect(warning!.message).toContain('Cancel keeps the conversation as it is');
		// Asking changes nothing.
		expect(await listMessages(env.db, id)).toEqual(rows);
	});

	it('asks nothing when the undone context still fits the window', async () => {
		const { marker, before } = await compacted();
		expect(await undoWarning(services(before), marker)).toBeNull();
	});
});
