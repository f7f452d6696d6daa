// The page's side of an isolated plugin: starts its context, imports the checked source
// there, and stands in for the plugin on the hook bus. Each hook, command and tool the
// plugin registers becomes a proxy function in the page that calls across the boundary; the
// bus's choke point bounds those calls in time as it bounds in-page ones. A watchdog pings the
// context all the while it runs, so one that stops answering outside any call (a loop in a
// timer, a crash, memory run out) is stopped too.
import type { Halt, PluginRunner, PluginReport, StartedPlugin } from '../plugin-runner';
import { PluginChannel } from './plugin-channel';
import { ProxyRegistrations } from './proxy-registrations';
import { readLoadAnswer, readRecords, readTrue } from './read-answers';
import type { ContextRequest } from './wire-protocol';
import type { PluginContext } from '../plugin-context';

/** A fresh isolated context, with the port the page listens on for it. */
export interface SandboxChannel {
	port: MessagePort;
	/** Rejects if the context could not start (for example, a policy refused its worker). */
	failed: Promise<never>;
	/** Ends the context and everything running in it. */
	terminate(): void;
}

export interface Watchdog {
	/** How often the page asks the context whether it still answers. */
	pingEveryMs: number;
	/** A context whose ping has waited this long, over at least three checks, is stopped. */
	stuckAfterMs: number;
}

export const WATCHDOG: Watchdog = { pingEveryMs: 2_000, stuckAfterMs: 6_000 };

/** The most dropped log lines one message may report (a count from the plugin's side, so bounded). */
const MAX_REPORTED_DROPS = 1_000_000;

const STOPPED = 'The plugin was stopped (disabled, reloaded or removed) before it answered.';

export function isolatedRunner(open: () => SandboxChannel, watchdog: Watchdog = WATCHDOG): PluginRunner {
	return {
		async start(source, url, signal, report) {
			const sandbox = open();
			let halt!: (why: Halt) => void;
			const halted = new Promise<Halt>((resolve) => (halt = resolve));
			let stopped = false;
			let unwatch = () => {};
			const stop = (reason = STOPPED) => {
				if (stopped) return;
				stopped = true;
				unwatch();
				channel.close(new Error(reason));
				sandbox.terminate();
			};
			// Stopped by the page's own checks: the host unloads it and its row says why.
			const stopFor = (why: string, unresponsive = false) => {
				if (stopped) return;
				const reason = `Stopped: ${why}, so it was ended. Reload starts it again.`;
				stop(reason);
				halt({ reason, unresponsive });
			};
			const channel = new PluginChannel(sandbox.port, { onViolation: stopFor, onRefused: (why) => report?.refused(why) });
			signal.addEventListener('abort', () => stop(), { once: true });
			if (signal.aborted) stop();
			try {
				const { manifest } = await Promise.race([channel.ask({ t: 'load', source, url }, readLoadAnswer), sandbox.failed]);
				if (signal.aborted) throw new Error('The plugin took too long to start.');
				unwatch = watchContext(channel, watchdog, () =>
					stopFor(`its code stopped answering for ${watchdog.stuckAfterMs / 1000} s outside any call (an endless loop, or it ran out of memory)`, true)
				);
				return startedPlugin(channel, manifest, halted, stop, report);
			} catch (error) {
				stop();
				throw error;
			}
		}
	};
}

function startedPlugin(
	channel: PluginChannel,
	manifest: StartedPlugin['manifest'],
	halted: Promise<Halt>,
	stop: () => void,
	report: PluginReport | undefined
): StartedPlugin {
	return {
		manifest,
		isolated: true,
		halted,
		stop,
		async register(ctx, plugins) {
			const proxies = new ProxyRegistrations(channel, ctx);
			channel.serve((request) => serveRequest(request, ctx, proxies, report));
			// In order, as the plugin made them: the first refusal fails register(ctx), as a throw there would.
			const records = await channel.ask({ t: 'start', pluginId: ctx.plugin_id, plugins: [...plugins] }, readRecords);
			for (const record of records) proxies.apply(record);
		},
		setPlugins(ids) {
			channel.tell({ t: 'plugins', ids: [...ids] });
		},
		async responsive(limitMs) {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)));
			try {
				return await Promise.race([channel.ask({ t: 'ping' }, readTrue).catch(() => false), late]);
			} finally {
				clearTimeout(timer);
			}
		}
	};
}

/** The few things a plugin may ask of the page, each already checked for shape and size. */
function serveRequest(request: ContextRequest, ctx: PluginContext, proxies: ProxyRegistrations, report: PluginReport | undefined): unknown {
	switch (request.t) {
		case 'register':
			return proxies.apply(request.record);
		case 'unregister':
			return proxies.remove(request.handle);
		case 'log':
			if (request.dropped > 0) report?.logsDropped(Math.min(request.dropped, MAX_REPORTED_DROPS));
			// No arguments: only the count of lines the context dropped.
			return request.args.length ? ctx.log[request.level](...request.args) : undefined;
		case 'storage': {
			const key = request.key as string;
			if (request.op === 'get') return ctx.storage.get(key);
			if (request.op === 'set') return ctx.storage.set(key, request.value);
			if (request.op === 'delete') return ctx.storage.delete(key);
			return ctx.storage.keys(key);
		}
	}
}

/**
 * Pings the context every `pingEveryMs`; calls `onStuck` when one ping has waited
 * `stuckAfterMs` and at least three checks. Counting checks as well as time keeps a page
 * that was itself busy (its answer queued behind the check) from blaming the plugin.
 */
function watchContext(channel: PluginChannel, { pingEveryMs, stuckAfterMs }: Watchdog, onStuck: () => void): () => void {
	let waitingSince: number | null = null;
	let checks = 0;
	const timer = setInterval(() => {
		if (waitingSince === null) {
			const sent = performance.now();
			waitingSince = sent;
			checks = 0;
			channel.ask({ t: 'ping' }, readTrue).then(
				() => {
					if (waitingSince === sent) waitingSince = null;
				},
				() => {}
			);
			return;
		}
		checks++;
		if (checks >= 3 && performance.now() - waitingSince >= stuckAfterMs) {
			clearInterval(timer);
			onStuck();
		}
	}, pingEveryMs);
	return () => clearInterval(timer);
}
