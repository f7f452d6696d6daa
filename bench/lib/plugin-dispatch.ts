// Hook dispatch through the app's own plugin host, in Chromium: the same plugins loaded once
// isolated (each in its sandboxed frame's worker, served by the plugin broker's worker, as the
// app runs them) and once in the page,
// on two buses that log their calls as the app does, dispatched in turn so that both see the
// same machine. Returns the time of every dispatch; bench/plugin-dispatch.mjs prints them.
import { CommandRegistry } from '../../src/lib/commands/command-registry';
import { PalimpsestDb } from '../../src/lib/db/database';
import { addPlugin } from '../../src/lib/db/plugin-verbs';
import { HookBus } from '../../src/lib/hooks/hook-bus';
import type { HistoryMessage, PostCompactionPayload, PreLlmCallPayload } from '../../src/lib/hooks/hook-payloads';
import { createHookLogWriter } from '../../src/lib/plugins/hook-log-writer';
import { importFromBlob } from '../../src/lib/plugins/import-plugin-module';
import { PluginHost } from '../../src/lib/plugins/plugin-host';
import { inPageRunner, type PluginRunner } from '../../src/lib/plugins/plugin-runner';
import { ToolRegistry } from '../../src/lib/plugins/plugin-tools';
import { pluginIdFromUrl } from '../../src/lib/plugins/plugin-url';
import { openFrameSandbox } from '../../src/lib/plugins/sandbox/frame-sandbox';
import { startBroker } from '../../src/lib/plugins/broker/broker-client';
import { BrokerSlot } from '../../src/lib/plugins/broker/broker-slot';
import { brokeredRunner } from '../../src/lib/plugins/broker/brokered-runner';
import { conversation } from './corpus';

export type RunnerMode = 'in-page' | 'isolated';

/** How a session's pre_llm_call history grows in the benchmark: one exchange a turn, compacted every few turns. */
export const HISTORY = { first: 20, perTurn: 2, turnsBetweenCompactions: 10 } as const;

function historyRows(count: number): HistoryMessage[] {
	const rows: HistoryMessage[] = [];
	for (const row of conversation()) {
		if (rows.length === count) break;
		rows.push({ role: row.role as HistoryMessage['role'], content: row.content });
	}
	return rows;
}

/**
 * What the plugins are called with. `preLlmCall`: a turn with a `messages`-message history.
 * `turn(n)`: the pre_llm_call of turn n of a session whose history starts at `first` messages
 * and gains one exchange each turn, and every 10 turns is compacted (here: starts over from
 * `first` other messages, so nothing of it is the same as before).
 */
export function benchPayloads(messages: number = HISTORY.first, first: number = HISTORY.first) {
	const { perTurn, turnsBetweenCompactions } = HISTORY;
	const rows = historyRows(Math.max(messages, first + perTurn * (turnsBetweenCompactions - 1) + 64));
	const session_id = crypto.randomUUID();
	const withHistory = (conversation_history: HistoryMessage[]): PreLlmCallPayload => ({
		session_id,
		session_key: `web:default:${session_id}`,
		user_message: 'Where did we leave the parser, and what is still open?',
		conversation_history,
		is_first_turn: false,
		model: 'offline-mini',
		platform: 'web',
		profile: 'default'
	});
	const turn = (n: number) => {
		const compaction = Math.floor(n / turnsBetweenCompactions);
		const start = (compaction % 32) * 2;
		return withHistory(rows.slice(start, start + first + perTurn * (n % turnsBetweenCompactions)));
	};
	const postCompaction: PostCompactionPayload = {
		session_id,
		old_session_id: '',
		kind: 'summarize',
		reason: 'pre_api',
		before_tokens: 90_000,
		after_tokens: 12_000,
		messages_removed: 40,
		profile: 'default',
		platform: 'web',
		facts_total: 23,
		facts_kept: 21,
		facts_lost: ['src/billing/ledger.ts', 'Never change the public API of the billing module.']
	};
	return { preLlmCall: withHistory(rows.slice(0, messages)), turn, postCompaction };
}

/** A plugin host as the app assembles one, over a throwaway database, serving `sources` by URL. */
export async function openBenchHost(mode: RunnerMode, sources: readonly string[], onStopped?: (id: string, reason: string) => void) {
	const db = new PalimpsestDb(`bench-plugins-${crypto.randomUUID()}`);
	const hookLog = createHookLogWriter(db);
	// As the app assembles it: isolated plugins share nothing, so the app's bus calls them
	// without waiting for one another; plugins in the page are called in turn.
	const hooks = new HookBus({ timeoutSeconds: () => 30, record: hookLog.record, logger: { warn: () => {} }, concurrentPlugins: mode === 'isolated' });
	const commands = new CommandRegistry(hooks);
	const tools = new ToolRegistry(hooks);
	const served = new Map(sources.map((source, i) => [`https://plugins.bench.test/bench-${i + 1}.js`, source]));
	const fetchImpl = (async (url: string | URL | Request) => {
		const source = served.get(String(url));
		if (source === undefined) return new Response('', { status: 404 });
		return new Response(source, { headers: { 'content-type': 'text/javascript' } });
	}) as typeof fetch;
	const broker = mode === 'isolated' ? new BrokerSlot(() => startBroker(db.name)) : undefined;
	const runner: PluginRunner = broker ? brokeredRunner(() => openFrameSandbox('bench'), () => broker.get()) : inPageRunner(importFromBlob);
	const host = new PluginHost({ db, hooks, commands, tools, timeoutMs: () => 30_000, runner, broker, fetchImpl, onStopped, logger: { info: () => {}, warn: () => {}, error: () => {} } });
	const ids: string[] = [];
	for (const url of served.keys()) {
		const row = await addPlugin(db, {
			id: pluginIdFromUrl(url, new Set(ids)), url, enabled: 1, pinned_sha256: null, cached_source: null,
			cached_sha256: null, manifest: null, last_error: null, added_at: Date.now()
		});
		const outcome = await host.load(row);
		if (!outcome.ok) throw new Error(`${mode} plugin ${row.id} did not load: ${outcome.error}`);
		if (outcome.plugin.isolated !== (mode === 'isolated')) throw new Error(`${row.id} did not run ${mode}.`);
		ids.push(row.id);
	}
	hooks.setPluginOrder(ids);
	return {
		hooks,
		commands,
		/** Writes the logged calls now (the app writes them in batches, 150 ms after the first). */
		flushLog: () => hookLog.flush(),
		async close() {
			host.close();
			await hookLog.flush();
			db.close();
			await db.delete();
		}
	};
}

export interface DispatchSamples {
	/** Per dispatch (ms), after the warm-up, in the order they ran. */
	collect: Record<RunnerMode, number[]>;
	notify: Record<RunnerMode, number[]>;
	/** The text pre_llm_call would append, by mode: the two must agree. */
	injected: Record<RunnerMode, string>;
	/** The pre_llm_call payload as JSON, in characters: the shortest and the longest. */
	payloadChars: [number, number];
}

export interface DispatchOptions {
	warmup: number;
	runs: number;
	/** How many messages pre_llm_call's history has after each compaction (20 by default). */
	history?: number;
	/** A pause before each round (ms): a turn's pre_llm_call usually comes after the tab sat idle. */
	gapMs?: number;
}

/**
 * `sources` loaded in both modes; then `warmup` + `runs` rounds, each one pre_llm_call
 * collect and one post_compaction notify (timed until the bus has settled) per mode, the
 * mode that goes first alternating from round to round.
 */
export async function measureDispatch(sources: readonly string[], { warmup, runs, gapMs = 0, history = HISTORY.first }: DispatchOptions): Promise<DispatchSamples> {
	const { turn, postCompaction } = benchPayloads(history, history);
	const hosts = { 'in-page': await openBenchHost('in-page', sources), isolated: await openBenchHost('isolated', sources) };
	try {
		const samples: DispatchSamples = {
			collect: { 'in-page': [], isolated: [] },
			notify: { 'in-page': [], isolated: [] },
			injected: { 'in-page': '', isolated: '' },
			payloadChars: [0, HISTORY.turnsBetweenCompactions - 1].map((n) => JSON.stringify(turn(n)).length) as [number, number]
		};
		for (let round = 0; round < warmup + runs; round++) {
			const order: RunnerMode[] = round % 2 ? ['isolated', 'in-page'] : ['in-page', 'isolated'];
			for (const mode of order) {
				const { hooks } = hosts[mode];
				const payload = turn(round);
				if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
				let started = performance.now();
				const injected = await hooks.collect('pre_llm_call', payload);
				const collected = performance.now() - started;
				if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
				started = performance.now();
				void hooks.notify('post_compaction', postCompaction);
				await hooks.settled();
				const notified = performance.now() - started;
				// Untimed, and the same for both modes: back to back, the batch the app writes 150 ms
				// after a call would otherwise land inside whichever dispatch waits on messages then.
				await hosts[mode].flushLog();
				if (round < warmup) continue;
				samples.collect[mode].push(collected);
				samples.notify[mode].push(notified);
				samples.injected[mode] = injected.map((item) => `${item.plugin_id}: ${item.text}`).join('\n\n');
			}
		}
		return samples;
	} finally {
		await Promise.all(Object.values(hosts).map((host) => host.close()));
	}
}
