// pre_llm_call through the isolation boundary (a real MessagePort): an isolated plugin sees the
// very payload an in-page one sees, turn after turn, while each call sends only the part of
// the conversation history that the plugin's context does not hold yet.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryMessage, PreLlmCallPayload } from '../../hooks/hook-payloads';
import { PluginHost } from '../plugin-host';
import { kvGet } from '../../db/plugin-verbs';
import type { PalimpsestDb } from '../../db/database';
import { isolatedTestRunner, makeHost, type RunnerKind } from '../test-host';

// Keeps what it was given: the payload's fields in order, the history, and whether it could
// change it (in its storage: a history is longer than the context a plugin may add to a turn).
const WITNESS = `
export function register(ctx) {
	ctx.register_hook('pre_llm_call', async (payload) => {
		let changed = 'no';
		try { payload.conversation_history[0].content = 'changed'; changed = 'yes'; } catch {}
		try { payload.conversation_history.push({ role: 'user', content: 'pushed' }); changed = 'yes'; } catch {}
		await ctx.storage.set('seen', JSON.stringify({ fields: Object.keys(payload), history: payload.conversation_history, frozen: Object.isFrozen(payload), changed }));
		return 'seen';
	});
}`;

const messages = (from: number, to: number): HistoryMessage[] =>
	Array.from({ length: to - from }, (_, i) => ({ role: (from + i) % 2 ? 'assistant' : 'user', content: `${'words '.repeat(200)}${from + i}` }));

const turn = (session_id: string, conversation_history: HistoryMessage[]): PreLlmCallPayload => ({
	session_id,
	session_key: `web:default:${session_id}`,
	user_message: 'next question',
	conversation_history,
	is_first_turn: false,
	model: 'offline',
	platform: 'web',
	profile: 'default'
});

const TURNS = [
	turn('s1', messages(0, 20)),
	turn('s1', messages(0, 22)),
	turn('s1', [{ role: 'user', content: 'summary' }, ...messages(16, 22)]),
	turn('s2', messages(40, 43)),
	turn('s1', [{ role: 'user', content: 'summary' }, ...messages(16, 24)])
];

const hosts: Array<ReturnType<typeof makeHost>> = [];
afterEach(async () => {
	for (const t of hosts.splice(0)) await t.close();
});

/** Isolated plugins whose context records how many characters each message it receives has. */
function countingRunner(t: ReturnType<typeof makeHost>, posted: number[]) {
	return isolatedTestRunner(t.db.name, { log: t.host.logBook }, (context) =>
		context.addEventListener('message', (event) => posted.push(JSON.stringify((event as MessageEvent).data)?.length ?? 0))
	);
}

/** A bus with the witness plugin loaded; `posted` (isolated only) collects what crossed. */
async function witness(kind: RunnerKind, posted?: number[]) {
	const t = makeHost(1000, {}, undefined, kind);
	hosts.push(t);
	const host = posted
		? new PluginHost({ db: t.db, hooks: t.hooks, commands: t.commands, tools: t.tools, timeoutMs: () => 1000, ...countingRunner(t, posted), fetchImpl: t.fetchImpl })
		: t.host;
	t.served['https://x.test/witness.js'] = { body: WITNESS };
	const outcome = await host.load(await t.row('https://x.test/witness.js'));
	if (!outcome.ok) throw new Error(outcome.error);
	return t;
}

/** What the witness kept of its latest call. */
async function seen(t: { db: PalimpsestDb }): Promise<unknown> {
	return JSON.parse(String(await kvGet(t.db, 'witness', 'seen')));
}

describe('pre_llm_call across the isolation boundary', () => {
	it('gives an isolated plugin the payload an in-page plugin gets, turn after turn, frozen', async () => {
		const inPage = await witness('in-page');
		const isolated = await witness('isolated');
		for (const payload of TURNS) {
			expect(await inPage.hooks.collect('pre_llm_call', payload)).toEqual([{ plugin_id: 'witness', text: 'seen' }]);
			expect(await isolated.hooks.collect('pre_llm_call', payload)).toEqual([{ plugin_id: 'witness', text: 'seen' }]);
			expect(await seen(isolated)).toEqual(await seen(inPage));
			expect(await seen(inPage)).toEqual({
				fields: Object.keys(payload),
				history: payload.conversation_history,
				frozen: true,
				changed: 'no'
			});
		}
	});

	it('sends a turn only the messages the plugin has not been given yet', async () => {
		const posted: number[] = [];
		const { hooks } = await witness('isolated', posted);
		const sizes: number[] = [];
		for (const payload of TURNS.slice(0, 2)) {
			const before = posted.length;
			await hooks.collect('pre_llm_call', payload);
			sizes.push(posted.slice(before).reduce((sum, size) => sum + size, 0));
		}
		const whole = JSON.stringify(TURNS[1].conversation_history).length;
		const exchange = JSON.stringify(TURNS[1].conversation_history.slice(20)).length;
		expect(sizes[0]).toBeGreaterThan(JSON.stringify(TURNS[0].conversation_history).length);
		// The second turn: its new exchange and the call around it, not the 22 messages again.
		expect(sizes[1]).toBeGreaterThan(exchange);
		expect(sizes[1]).toBeLessThan(exchange + 2000);
		expect(sizes[1]).toBeLessThan(whole / 5);
	});
});
