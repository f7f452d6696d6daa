// The fact check a compaction records: what the summary lost is on the marker and in
// post_compaction, and an automatic compaction appends it to the summary within a tenth of the
// summary's budget unless the user turned that off.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import type { CompactionReason } from '../hooks/hook-payloads';
import { compactSession } from './compact-session';
import { filler, say, scripted, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import { LOST_FACTS_HEADING } from '../context/check-facts';

const setup = useCompactionEnv('summary-facts');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

/** A summarizer that keeps the port and loses the rest. */
const { provider: writer } = scripted(async function* () {
	yield* say('## Goal\n- Fix the server on port 8443.');
});
const summarizer = { provider: writer, model: 'offline-mini', windowTokens: 32_000 };

async function plantedSession(): Promise<string> {
	const id = await env.newSession();
	await appendMessages(db, id, [
		{ id: 'u0', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: `The server on port 8443 reads config/server.toml. Never restart it during business hours.\n${filler(0, 60)}` },
		{ id: 'a0', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: `Ask ingrid.holm@example.com about the 512 MB cache. ${filler(1, 200)}` },
		...Array.from({ length: 8 }, (_, i) => [
			{ id: `u${i + 1}`, role: 'user' as const, kind: 'message' as const, status: 'complete' as const, created_at: 1, content: filler(i + 2, 30) },
			{ id: `a${i + 1}`, role: 'assistant' as const, kind: 'message' as const, status: 'complete' as const, created_at: 1, content: filler(i + 3, 150) }
		]).flat()
	]);
	return id;
}

async function compact(reason: CompactionReason, addLostFacts = true) {
	const id = await plantedSession();
	await compactSession(env.deps({ summarizer }, { addLostFacts }), { sessionId: id, reason });
	await env.bus.hooks.settled();
	const rows = await listMessages(db, id);
	const summary = rows.find((row) => row.kind === 'summary' && row.active === 1)!;
	return { summary, payload: env.bus.of('post_compaction')[0], seqOf: (rowId: string) => rows.find((row) => row.id === rowId)!.seq };
}

const LOST = ['config/server.toml', 'Never restart it during business hours.', 'ingrid.holm@example.com', '512 MB'];

describe('the fact check of a compaction', () => {
	it('a compaction the user asked for lists the lost facts, each with its message, and adds none', async () => {
		const { summary, payload, seqOf } = await compact('manual');
		expect(summary.content).not.toContain(LOST_FACTS_HEADING);
		const facts = summary.compaction!.facts!;
		expect(facts.total).toBe(5);
		expect(facts.kept).toBe(1);
		expect(facts.lost_count).toBe(4);
		expect(facts.lost.map((fact) => fact.text).sort()).toEqual([...LOST].sort());
		expect(facts.lost.find((fact) => fact.text === '512 MB')?.seq).toBe(seqOf('a0'));
		expect(facts.lost.find((fact) => fact.text === 'config/server.toml')?.seq).toBe(seqOf('u0'));
		expect(facts.lost.some((fact) => fact.added)).toBe(false);
		expect(payload).toMatchObject({ facts_total: 5, facts_kept: 1 });
		expect([...(payload.facts_lost as string[])].sort()).toEqual([...LOST].sort());
	});

	it('an automatic compaction appends lost facts verbatim to its summary within a tenth of its budget, the rest listed', async () => {
		const { summary, payload } = await compact('pre_api');
		const facts = summary.compaction!.facts!;
		const added = facts.lost.filter((fact) => fact.added).map((fact) => fact.text);
		const left = facts.lost.filter((fact) => !fact.added).map((fact) => fact.text);
		// This small summary's budget has room for two of them.
		expect(added).toEqual(['config/server.toml', 'Never restart it during business hours.']);
		expect(summary.content).toContain(`${LOST_FACTS_HEADING}\n- config/server.toml\n- Never restart it during business hours.`);
		for (const text of left) expect(summary.content).not.toContain(text);
		expect(payload).toMatchObject({ facts_total: 5, facts_kept: 3, facts_lost: left });
	});

	it('"Add lost facts automatically" turned off leaves an automatic summary as written', async () => {
		const { summary, payload } = await compact('pre_api', false);
		expect(summary.content).not.toContain(LOST_FACTS_HEADING);
		expect(payload).toMatchObject({ facts_total: 5, facts_kept: 1 });
	});
});
