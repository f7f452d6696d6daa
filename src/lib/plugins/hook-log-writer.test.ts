// The hook log is written in batches: by the plugin broker once it runs (off the page's
// thread), by the page itself before that, and by the page when the tab is going (a worker may
// end before it reads a last message).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import type { HookLogRow } from '../db/schema';
import type { HookLogEntry } from '../hooks/run-hook';
import { createHookLogWriter } from './hook-log-writer';

const dbs: PalimpsestDb[] = [];
afterEach(async () => {
	for (const db of dbs.splice(0)) await db.delete();
});

function entry(hook: string): HookLogEntry {
	return { at: 1, hook, plugin_id: 'p', duration_ms: 1, outcome: 'ok', summary: hook, call_id: hook, detail: { payload: hook } as never };
}

describe('the hook log writer', () => {
	it('hands its batches to the broker once one runs, without the in-memory details, and writes them itself before', async () => {
		const db = new PalimpsestDb(`hook-log-${crypto.randomUUID()}`);
		dbs.push(db);
		const handed: HookLogRow[][] = [];
		let broker: ((rows: HookLogRow[]) => Promise<void>) | null = null;
		const writer = createHookLogWriter(db, () => broker);
		writer.record(entry('before'));
		await writer.flush();
		expect((await db.hook_log.toArray()).map((row) => row.hook)).toEqual(['before']);

		broker = async (rows) => void handed.push(rows);
		writer.record(entry('with the broker'));
		await writer.flush();
		expect(handed).toEqual([[expect.not.objectContaining({ detail: expect.anything() })]]);
		expect(handed[0][0]).toMatchObject({ hook: 'with the broker' });
		expect(await db.hook_log.count()).toBe(1);
		// The details stay in this tab.
		expect(writer.detail('with the broker')).toEqual({ payload: 'with the broker' });

		writer.record(entry('leaving'));
		await writer.flush(true);
		expect(handed).toHaveLength(1);
		expect((await db.hook_log.toArray()).map((row) => row.hook)).toEqual(['before', 'leaving']);
	});
});
