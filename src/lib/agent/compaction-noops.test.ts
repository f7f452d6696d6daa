// Every compaction that changes nothing fires nothing: the transcript stays exactly as it was.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { updateMessage } from '../db/message-verbs';
import { getSession } from '../db/session-verbs';
import { createOfflineProvider } from '../providers/offline';
import { sleep } from '../providers/abort';
import { compactSession } from './compact-session';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CUT_NOTE } from '../context/summary-budget';
import { SUMMARY_PREAMBLE } from '../context/summary-template';
import { filler, say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';

const setup = useCompactionEnv('noops');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

/** Runs `attempt` on a seeded session and checks that nothing changed and nothing fired. */
async function expectNoop(exchanges: number, attempt: (id: string) => Promise<unknown>) {
	const id = await env.newSession();
	await seedConversation(db, id, exchanges);
	const before = await env.transcript(id);
	const outcome = await attempt(id);
	await env.bus.hooks.settled();
	expect(env.bus.of('post_compaction')).toEqual([]);
	expect(await env.transcript(id)).toEqual(before);
	return { id, outcome };
}

/** A summarising model that streams slowly, so a test can cancel it part-way. */
function slowModel() {
	let started = () => {};
	const streaming = new Promise<void>((resolve) => (started = resolve));
	const { provider } = scripted(async function* (request) {
		started();
		yield { type: 'text', text: '## Goal\n- partial' };
		await sleep(60_000, request.signal);
	});
	return { writer: { provider, model: 'slow', windowTokens: 8000 }, streaming };
}

describe('compactions that change nothing fire nothing', () => {
	it('a cancelled summary: nothing changes, and automatic compaction pauses', async () => {
		const { writer, streaming } = slowModel();
		const controller = new AbortController();
		const { id, outcome } = await expectNoop(12, async (sessionId) => {
			const running = compactSession(env.deps({ summarizer: writer }), { sessionId, reason: 'manual', signal: controller.signal });
			await streaming;
			controller.abort();
			return running;
		});
		expect(outcome).toMatchObject({ status: 'noop', why: 'cancelled' });
		expect((await getSession(db, id))!.compaction.cooldown_until).toBeGreaterThan(Date.now());
	});

	it('Cancel stops the compaction alone, through the cancel its progress carries', async () => {
		const { writer, streaming } = slowModel();
		let cancel = () => {};
		const { outcome } = await expectNoop(12, async (sessionId) => {
			const deps = env.deps({ summarizer: writer, onProgress: (p) => p.cancel && (cancel = p.cancel) });
			const running = compactSession(deps, { sessionId, reason: 'pre_api' });
			await streaming;
			cancel();
			return running;
		});
		expect(outcome).toMatchObject({ status: 'noop', why: 'cancelled' });
	});

	it('a failed summary: nothing changes, and each failure in a row waits longer', async () => {
		const { provider } = scripted(async function* () {
			yield* [];
			throw new Error('model unavailable');
		});
		const writer = { provider, model: 'broken', windowTokens: 8000 };
		const { id, outcome } = await expectNoop(12, (sessionId) => compactSession(env.deps({ summarizer: writer }), { sessionId, reason: 'manual' }));
		expect(outcome).toMatchObject({ status: 'noop', why: 'failed', message: expect.stringContaining('model unavailable') });
		const first = (await getSession(db, id))!.compaction;
		await compactSession(env.deps({ summarizer: writer }), { sessionId: id, reason: 'manual' });
		const second = (await getSession(db, id))!.compaction;
		expect(second.failures).toBe(first.failures + 1);
		expect(second.cooldown_until - Date.now()).toBeGreaterThan(first.cooldown_until - Date.now());
	});

	it('an automatic attempt during the cooldown does nothing; one the user asks for still runs', async () => {
		const { id, outcome } = await expectNoop(12, async (sessionId) => {
			const session = (await getSession(db, sessionId))!;
			await db.sessions.update(sessionId, { compaction: { ...session.compaction, failures: 1, cooldown_until: Date.now() + 60_000 } });
			return compactSession(env.deps(), { sessionId, reason: 'pre_api' });
		});
		expect(outcome).toMatchObject({ status: 'noop', why: 'cooldown' });
		expect(await compactSession(env.deps(), { sessionId: id, reason: 'manual' })).toMatchObject({ status: 'compacted' });
	});

	it('a summary that would not be shorter is not written', async () => {
		// Too short a conversation for a summary that fills the smallest budget to be shorter.
		const { provider } = scripted(() => say(`## Goal\n${'- a very long summary\n'.repeat(400)}`));
		const { outcome } = await expectNoop(2, (sessionId) =>
			compactSession(env.deps({ summarizer: { provider, model: 'verbose', windowTokens: 8000 } }, { tailTokens: 0 }), { sessionId, reason: 'manual' })
		);
		expect(outcome).toMatchObject({ status: 'noop', why: 'not_shorter', message: expect.stringMatching(/would not make the conversation shorter/) });
	});

	it('a summary that frees less than a tenth of what it replaces is not written, and says so', async () => {
		// The first exchange (about 270 tokens) is replaced; the summary is within its budget
		// (256 tokens at the least) but nearly as long.
		const id = await env.newSession();
		await seedConversation(db, id, 2, 200);
		const [question, answer] = await db.messages.where('session_id').equals(id).sortBy('seq');
		const replaced = countTokens(question.content) + countTokens(answer.content);
		const words = `${question.content} ${answer.content}`.split(' ');
		let used = 0;
		while (used < words.length && countTokens(`${SUMMARY_PREAMBLE}\n\n## Goal\n- ${words.slice(0, used).join(' ')}`) < replaced * 0.95) used += 1;
		const text = words.slice(0, used).join(' ');
		const { provider } = scripted(() => say(`## Goal\n- ${text}`));
		const before = await env.transcript(id);
		const outcome = await compactSession(env.deps({ summarizer: { provider, model: 'verbose', windowTokens: 8000 } }, { tailTokens: 0 }), { sessionId: id, reason: 'manual' });
		await env.bus.hooks.settled();
		expect(outcome).toMatchObject({ status: 'noop', why: 'not_shorter', message: expect.stringMatching(/^The summary would free only \d+ of the [\d,]+ tokens it replaces \(under 10%\)/) });
		expect(env.bus.of('post_compaction')).toEqual([]);
		expect(await env.transcript(id)).toEqual(before);
	});

	it('a summary that runs over its budget is cut at a section boundary and compacts', async () => {
		const sections = ['Goal', 'Constraints', 'Decisions', 'Done'].map((name, i) => `## ${name}\n${Array.from({ length: 40 }, (_, k) => `- item ${i}.${k} ${filler(k, 12)}`).join('\n')}`);
		const { provider, requests } = scripted(() => say(sections.join('\n\n')));
		const id = await env.newSession();
		await seedConversation(db, id, 12, 200);
		const outcome = await compactSession(env.deps({ summarizer: { provider, model: 'verbose', windowTokens: 8000 } }, { tailTokens: 0 }), { sessionId: id, reason: 'manual' });
		expect(outcome).toMatchObject({ status: 'compacted' });
		const summary = (await db.messages.where('session_id').equals(id).toArray()).find((row) => row.kind === 'summary' && row.active)!;
		expect(summary.content).toMatch(/## Goal\n- item 0\.0/);
		expect(summary.content).not.toMatch(/## Done/);
		expect(summary.content.endsWith(CUT_NOTE)).toBe(true);
		// The model was asked for the budget: a fifth of what the summary replaces.
		expect(JSON.stringify(requests[0].messages)).toMatch(/Keep the whole summary under [\d,]+ tokens/);
		if (outcome.status !== 'compacted') return;
		const replaced = outcome.payload.before_tokens - (outcome.payload.after_tokens ?? 0) + (summary.tokens ?? 0);
		expect(summary.tokens).toBeLessThanOrEqual(Math.max(256, Math.round(replaced * 0.2)) + 1);
	});

	it('/compress on a short session says there is nothing to compact', async () => {
		const { outcome } = await expectNoop(1, (sessionId) => compactSession(env.deps(), { sessionId, reason: 'manual' }));
		expect(outcome).toMatchObject({ status: 'noop', why: 'nothing', message: expect.stringMatching(/^Nothing to compact/) });
	});

	it('a compaction that lost a race (the rows changed while it summarised) writes nothing', async () => {
		let sessionId = '';
		const { provider } = scripted(async function* () {
			// Another writer takes the oldest row out of the context meanwhile.
			await updateMessage(db, [sessionId, 0], { active: 0, compacted_by: 'elsewhere' });
			yield* say('## Goal\n- summary');
		});
		const id = await env.newSession();
		sessionId = id;
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps({ summarizer: { provider, model: 'm', windowTokens: 8000 } }), { sessionId: id, reason: 'manual' });
		await env.bus.hooks.settled();
		expect(outcome).toMatchObject({ status: 'noop', why: 'race' });
		expect(env.bus.of('post_compaction')).toEqual([]);
		const rows = await db.messages.where('[session_id+seq]').between([id, -Infinity], [id, Infinity]).toArray();
		expect(rows.filter((row) => row.kind === 'summary')).toEqual([]);
		expect(rows.filter((row) => row.active === 0).map((row) => row.compacted_by)).toEqual(['elsewhere']);
	});

	it('the offline summarizer needs no model call at all', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps({ provider: createOfflineProvider({ delayMs: 0 }) }), { sessionId: id, reason: 'manual' });
		expect(outcome.status).toBe('compacted');
	});
});
