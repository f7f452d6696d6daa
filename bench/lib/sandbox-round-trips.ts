// Where an isolated plugin's hook call spends its time, below the hook bus: the plugin runtime
// reached through the plugin protocol (every message checked) in three ways: its sandboxed
// frame's worker through the plugin broker's worker, as in the app; the same frame's worker
// with the page holding its channel itself (as before the broker); a MessageChannel in the
// page's own thread. Each plugin is called one after another (as a bus calling plugins in turn
// would) and all at once: a bare round trip, and pre_llm_call with the payload, with an empty
// history and with a long one.
import { proxy, transfer, type Remote } from 'comlink';
import type { PreLlmCallPayload } from '../../src/lib/hooks/hook-payloads';
import { importFromBlob } from '../../src/lib/plugins/import-plugin-module';
import { openChannelSandbox } from '../../src/lib/plugins/sandbox/channel-sandbox';
import { openFrameSandbox } from '../../src/lib/plugins/sandbox/frame-sandbox';
import type { SandboxChannel } from '../../src/lib/plugins/sandbox/sandbox-channel';
import { PluginChannel } from '../../src/lib/plugins/sandbox/plugin-channel';
import { readLoadAnswer, readRecords, readTrue, readValue } from '../../src/lib/plugins/sandbox/read-answers';
import type { PageQuestion, RegistrationRecord } from '../../src/lib/plugins/sandbox/wire-protocol';
import { startBroker, type BrokerHandle } from '../../src/lib/plugins/broker/broker-client';
import type { AnswerKind, BrokerApi, PluginEvents } from '../../src/lib/plugins/broker/broker-protocol';
import { benchPayloads } from './plugin-dispatch';
import { median } from './timing';

export type Place = 'through the broker' | 'frame worker' | 'same thread';

const PLACES: Place[] = ['through the broker', 'frame worker', 'same thread'];

/** How a question reaches one started plugin, whichever way. */
interface Started {
	ask(question: PageQuestion, kind: AnswerKind): Promise<unknown>;
	handle: number;
	stop(): void;
}

const READERS: Record<AnswerKind, (value: unknown) => unknown> = {
	load: readLoadAnswer,
	records: readRecords,
	true: readTrue,
	ignored: (value) => value,
	value: readValue,
	history: (value) => value
};

/** The page holds the plugin's channel itself. */
function direct(sandbox: SandboxChannel, index: number): Omit<Started, 'handle'> {
	const channel = new PluginChannel(sandbox.port, {
		onViolation: (reason) => console.error(`bench plugin ${index} stopped: ${reason}`),
		onRefused: (why) => console.error(`bench plugin ${index}: refused ${why}`)
	});
	// The plugin only registers hooks: nothing calls back into the page.
	channel.serve(() => undefined);
	return {
		ask: (question, kind) => channel.ask(question, READERS[kind]),
		stop() {
			channel.close(new Error('stopped'));
			sandbox.terminate();
		}
	};
}

let nextKey = 1;

/** The benchmark plugin registers nothing late, stays within its budgets and is never stopped. */
function proxyEvents(): PluginEvents {
	return proxy({ register: () => undefined, unregister: () => undefined, halted: (halt) => console.error(`bench plugin stopped: ${halt.reason}`), usage: () => undefined });
}

/** The plugin broker's worker holds the plugin's channel, as in the app. */
async function brokered(sandbox: SandboxChannel, broker: Remote<BrokerApi>): Promise<Omit<Started, 'handle'>> {
	const key = nextKey++;
	const ignore = () => undefined;
	await broker.attach(key, transfer(sandbox.port, [sandbox.port]), proxyEvents());
	await broker.serve(key, { pluginId: `bench-${key}`, addedAt: 0 });
	return {
		ask: (question, kind) => broker.ask(key, question, kind),
		stop() {
			void broker.detach(key).catch(ignore);
			sandbox.terminate();
		}
	};
}

async function start(place: Place, source: string, index: number, broker: () => Promise<Remote<BrokerApi>>): Promise<Started> {
	const sandbox = place === 'same thread' ? openChannelSandbox(importFromBlob) : openFrameSandbox('bench');
	const link = place === 'through the broker' ? await brokered(sandbox, await broker()) : direct(sandbox, index);
	try {
		await Promise.race([link.ask({ t: 'load', source, url: `https://plugins.bench.test/round-trip-${index}.js` }, 'load'), sandbox.failed]);
		const records = (await link.ask({ t: 'start', pluginId: `bench-${index}`, plugins: [] }, 'records')) as RegistrationRecord[];
		const hook = records.find((record) => record.kind === 'hook' && record.name === 'pre_llm_call');
		if (!hook) throw new Error('The benchmark plugin registers no pre_llm_call.');
		return { ...link, handle: hook.handle };
	} catch (error) {
		link.stop();
		throw error;
	}
}

/** One way of calling every plugin: median ms of a round over all of them, in turn and at once. */
export interface CallTimes {
	inTurn: number;
	atOnce: number;
	/** Of `atOnce`, the part before the first answer can arrive: the page posting every call. */
	posting: number;
}

export interface PlaceTimes {
	ping: CallTimes;
	call: CallTimes;
	emptyCall: CallTimes;
	longCall: CallTimes;
}

export interface RoundTripReport {
	plugins: number;
	byPlace: Record<Place, PlaceTimes>;
	/** One structuredClone of the pre_llm_call payload in the page, median over batches. */
	cloneMs: number;
	/** The payload as JSON, in characters, with the usual and with the long history. */
	payloadChars: number;
	longPayloadChars: number;
	longMessages: number;
}

/** Median ms of `round`, and of the synchronous part of it (what runs before its first await). */
async function timeRounds(runs: number, round: () => Promise<unknown>): Promise<{ ms: number; syncMs: number }> {
	for (let warm = 0; warm < Math.min(runs, 20); warm++) await round();
	const times: number[] = [];
	const sync: number[] = [];
	for (let run = 0; run < runs; run++) {
		const started = performance.now();
		const done = round();
		sync.push(performance.now() - started);
		await done;
		times.push(performance.now() - started);
	}
	return { ms: median(times), syncMs: median(sync) };
}

async function timeCalls(runs: number, plugins: readonly Started[], call: (plugin: Started) => Promise<unknown>): Promise<CallTimes> {
	const inTurn = await timeRounds(runs, async () => {
		for (const plugin of plugins) await call(plugin);
	});
	const atOnce = await timeRounds(runs, () => Promise.all(plugins.map(call)));
	return { inTurn: inTurn.ms, atOnce: atOnce.ms, posting: atOnce.syncMs };
}

const LONG_HISTORY = 100;

/** The whole payload each time, as a plain call (the app's bus sends a history delta instead). */
function call(plugin: Started, payload: unknown): Promise<unknown> {
	return plugin.ask({ t: 'call', handle: plugin.handle, args: [payload] }, 'value');
}

export async function measureRoundTrips(source: string, plugins: number, runs: number): Promise<RoundTripReport> {
	const { preLlmCall } = benchPayloads();
	// Frozen, as the bus hands it over.
	const payload = Object.freeze(structuredClone(preLlmCall));
	const empty: PreLlmCallPayload = Object.freeze({ ...preLlmCall, conversation_history: [] });
	const long = Object.freeze(benchPayloads(LONG_HISTORY).preLlmCall);
	const byPlace = {} as Record<Place, PlaceTimes>;
	// The broker serves plugins over a throwaway database of its own, as the app's serves a profile's.
	let handle: Promise<BrokerHandle> | undefined;
	const broker = async () => (await (handle ??= startBroker(`bench-broker-${crypto.randomUUID()}`))).broker;
	for (const place of PLACES) {
		const started: Started[] = [];
		try {
			for (let i = 0; i < plugins; i++) started.push(await start(place, source, i + 1, broker));
			byPlace[place] = {
				ping: await timeCalls(runs, started, (plugin) => plugin.ask({ t: 'ping' }, 'true')),
				call: await timeCalls(runs, started, (plugin) => call(plugin, payload)),
				emptyCall: await timeCalls(runs, started, (plugin) => call(plugin, empty)),
				longCall: await timeCalls(runs, started, (plugin) => call(plugin, long))
			};
		} finally {
			for (const plugin of started) plugin.stop();
		}
	}
	if (handle) (await handle).close();
	const batch = 100;
	const cloneTimes: number[] = [];
	for (let run = 0; run < 20; run++) {
		const at = performance.now();
		for (let i = 0; i < batch; i++) structuredClone(payload);
		cloneTimes.push((performance.now() - at) / batch);
	}
	return {
		plugins,
		byPlace,
		cloneMs: median(cloneTimes),
		payloadChars: JSON.stringify(payload).length,
		longPayloadChars: JSON.stringify(long).length,
		longMessages: LONG_HISTORY
	};
}
