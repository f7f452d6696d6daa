// Where an isolated plugin's hook call spends its time, below the hook bus: the plugin runtime
// reached through the page's end of the plugin protocol (PluginChannel, every message checked)
// in two places (its sandboxed frame's worker, as in the app; a
// MessageChannel in the page's own thread), each plugin called one after another (as a bus
// calling plugins in turn would) and all at once: a bare round trip, and pre_llm_call with the
// payload, with an empty history and with a long one.
import type { PreLlmCallPayload } from '../../src/lib/hooks/hook-payloads';
import { importFromBlob } from '../../src/lib/plugins/import-plugin-module';
import { openChannelSandbox } from '../../src/lib/plugins/sandbox/channel-sandbox';
import { openFrameSandbox } from '../../src/lib/plugins/sandbox/frame-sandbox';
import type { SandboxChannel } from '../../src/lib/plugins/sandbox/sandbox-channel';
import { PluginChannel } from '../../src/lib/plugins/sandbox/plugin-channel';
import { readLoadAnswer, readRecords, readTrue, readValue } from '../../src/lib/plugins/sandbox/read-answers';
import { benchPayloads } from './plugin-dispatch';
import { median } from './timing';

export type Place = 'frame worker' | 'same thread';

const OPEN: Record<Place, () => SandboxChannel> = {
	'frame worker': () => openFrameSandbox('bench'),
	'same thread': () => openChannelSandbox(importFromBlob)
};

interface Started {
	channel: PluginChannel;
	handle: number;
	sandbox: SandboxChannel;
}

async function start(place: Place, source: string, index: number): Promise<Started> {
	const sandbox = OPEN[place]();
	const channel = new PluginChannel(sandbox.port, {
		onViolation: (reason) => console.error(`bench plugin ${index} stopped: ${reason}`),
		onRefused: (why) => console.error(`bench plugin ${index}: refused ${why}`)
	});
	try {
		await Promise.race([channel.ask({ t: 'load', source, url: `https://plugins.bench.test/round-trip-${index}.js` }, readLoadAnswer), sandbox.failed]);
		// The plugin only registers hooks: nothing calls back into the page.
		channel.serve(() => undefined);
		const records = await channel.ask({ t: 'start', pluginId: `bench-${index}`, plugins: [] }, readRecords);
		const hook = records.find((record) => record.kind === 'hook' && record.name === 'pre_llm_call');
		if (!hook) throw new Error('The benchmark plugin registers no pre_llm_call.');
		return { channel, handle: hook.handle, sandbox };
	} catch (error) {
		channel.close(new Error('stopped'));
		sandbox.terminate();
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
	return plugin.channel.ask({ t: 'call', handle: plugin.handle, args: [payload] }, readValue);
}

export async function measureRoundTrips(source: string, plugins: number, runs: number): Promise<RoundTripReport> {
	const { preLlmCall } = benchPayloads();
	// Frozen, as the bus hands it over.
	const payload = Object.freeze(structuredClone(preLlmCall));
	const empty: PreLlmCallPayload = Object.freeze({ ...preLlmCall, conversation_history: [] });
	const long = Object.freeze(benchPayloads(LONG_HISTORY).preLlmCall);
	const byPlace = {} as Record<Place, PlaceTimes>;
	for (const place of Object.keys(OPEN) as Place[]) {
		const started: Started[] = [];
		try {
			for (let i = 0; i < plugins; i++) started.push(await start(place, source, i + 1));
			byPlace[place] = {
				ping: await timeCalls(runs, started, (plugin) => plugin.channel.ask({ t: 'ping' }, readTrue)),
				call: await timeCalls(runs, started, (plugin) => call(plugin, payload)),
				emptyCall: await timeCalls(runs, started, (plugin) => call(plugin, empty)),
				longCall: await timeCalls(runs, started, (plugin) => call(plugin, long))
			};
		} finally {
			for (const plugin of started) {
				plugin.channel.close(new Error('stopped'));
				plugin.sandbox.terminate();
			}
		}
	}
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
