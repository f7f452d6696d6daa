// One plugin's pre_llm_call while another plugin floods the app: both run isolated, served by
// the plugin broker's worker, as in the app. The harmless plugin answers at once; the flooder
// keeps 250 storage writes of near a megabyte in flight (a list of many short strings, the
// costliest kind of value to read) from its `/flood` command until `/stop-flood`. Returns the
// time of each pre_llm_call, quiet and during the flood; bench/plugin-dispatch.mjs prints them.
import type { CommandInvocation } from '../../src/lib/commands/command-registry';
import { benchPayloads, openBenchHost } from './plugin-dispatch';

export const FLOOD_SOURCE = `export const manifest = { name: 'Bench flood', version: '1.0.0' };
export function register(ctx) {
	let flooding = false;
	ctx.register_command('flood', () => {
		const value = Array.from({ length: 24000 }, (_, i) => 'v' + String(i).padStart(5, '0'));
		let calls = 0;
		const next = () => {
			if (!flooding) return;
			calls++;
			ctx.storage.set('flood-' + (calls % 4), value).then(next, () => setTimeout(next, 10));
		};
		flooding = true;
		setTimeout(() => { for (let i = 0; i < 250; i++) next(); }, 0);
		return 'flooding';
	});
	ctx.register_command('stop-flood', () => {
		flooding = false;
		return 'stopped';
	});
}
`;

export interface FloodSamples {
	/** Each pre_llm_call (ms) through the harmless plugin alone, then while the other plugin floods. */
	quiet: number[];
	flooded: number[];
	/** The app stopped the flooder (for its own backlog) this long after its flood began; calls after that are left out. */
	stopped: { afterMs: number; reason: string } | null;
}

const INVOCATION: CommandInvocation = { session_id: 'bench', session_key: 'web:default:bench', platform: 'web', source: null };

/** `runs` pre_llm_calls quiet, then `runs` during the flood, `gapMs` apart (a turn's call comes after the tab sat idle). */
export async function measureFloodedDispatch(harmless: string, runs: number, gapMs: number): Promise<FloodSamples> {
	let floodStarted = Infinity;
	let stopped: FloodSamples['stopped'] = null;
	const host = await openBenchHost('isolated', [harmless, FLOOD_SOURCE], (_id, reason) => (stopped = { afterMs: performance.now() - floodStarted, reason }));
	const { turn } = benchPayloads();
	const call = async (round: number) => {
		await new Promise((resolve) => setTimeout(resolve, gapMs));
		const started = performance.now();
		await host.hooks.collect('pre_llm_call', turn(round));
		return performance.now() - started;
	};
	try {
		const quiet: number[] = [];
		const flooded: number[] = [];
		for (let round = 0; round < runs; round++) quiet.push(await call(round));
		await host.commands.execute('/flood', INVOCATION);
		floodStarted = performance.now();
		// Let the flood fill its 250 writes in flight before the first measured call.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		for (let round = 0; round < runs && !stopped; round++) {
			const ms = await call(round);
			// A call the flooder's stop came in the middle of was partly quiet: left out too.
			if (!stopped) flooded.push(ms);
		}
		// The app may stop the flooder meanwhile: then this call fails with its reason, and it is stopped already.
		await host.commands.execute('/stop-flood', INVOCATION).catch(() => {});
		return { quiet, flooded, stopped };
	} finally {
		await host.close();
	}
}
