// The page's side of an isolated plugin: starts its context, imports the checked source
// there, and stands in for the plugin on the hook bus. Each hook, command and tool the
// plugin registers becomes a proxy function in the page that calls across the boundary; the
// bus's choke point bounds those calls in time as it bounds in-page ones.
import * as Comlink from 'comlink';
import { HOOK_KINDS, isHookName } from '../../hooks/hook-map';
import type { PluginContext } from '../plugin-context';
import type { PluginRunner, StartedPlugin } from '../plugin-runner';
import { HistorySender, type HistoryEntry } from './history-delta';
import type { IgnoredValue, RegistrationRecord, SandboxHost, SandboxRuntime } from './sandbox-protocol';

/** A fresh isolated context, with the port its runtime listens on. */
export interface SandboxChannel {
	endpoint: Comlink.Endpoint;
	/** Rejects if the context could not start (for example, a policy refused its worker). */
	failed: Promise<never>;
	/** Ends the context and everything running in it. */
	terminate(): void;
}

export function isolatedRunner(open: () => SandboxChannel): PluginRunner {
	return {
		async start(source, url, signal) {
			const channel = open();
			const remote = Comlink.wrap<SandboxRuntime>(channel.endpoint);
			let stopped = false;
			const stops: Array<() => void> = [];
			// Calls still waiting when the plugin stops fail at once, instead of at their timeout.
			let halt!: (error: Error) => void;
			const halted = new Promise<never>((_, reject) => (halt = reject));
			halted.catch(() => {});
			const stop = () => {
				if (stopped) return;
				stopped = true;
				channel.terminate();
				halt(new Error('The plugin was stopped (disabled, reloaded or removed) before it answered.'));
				for (const onStop of stops) onStop();
			};
			signal.addEventListener('abort', stop, { once: true });
			if (signal.aborted) stop();
			try {
				const { manifest } = await Promise.race([remote.load(source, url), channel.failed]);
				if (signal.aborted) throw new Error('The plugin took too long to start.');
				const failed = Promise.race([channel.failed, halted]);
				return startedPlugin(remote, manifest, failed, (onStop) => {
					stops.push(onStop);
					if (stopped) onStop();
				}, stop);
			} catch (error) {
				stop();
				throw error;
			}
		}
	};
}

function startedPlugin(
	remote: Comlink.Remote<SandboxRuntime>,
	manifest: StartedPlugin['manifest'],
	failed: Promise<never>,
	onStop: (close: () => void) => void,
	stop: () => void
): StartedPlugin {
	return {
		manifest,
		isolated: true,
		stop,
		async register(ctx, plugins) {
			const proxies = new ProxyRegistrations(remote, ctx, failed);
			const host: SandboxHost = {
				register: async (record) => proxies.apply(record),
				unregister: async (handle) => proxies.remove(handle),
				storage: (op, key, value) => {
					if (op === 'get') return ctx.storage.get(key as string);
					if (op === 'set') return ctx.storage.set(key as string, value);
					if (op === 'delete') return ctx.storage.delete(key as string);
					return ctx.storage.keys(key);
				},
				log: (level, args) => ctx.log[level](...args)
			};
			// The page's side on a port of its own, closed with the plugin, so nothing of this
			// plugin's ctx stays reachable once it is stopped.
			const hostChannel = new MessageChannel();
			Comlink.expose(host, hostChannel.port1);
			onStop(() => hostChannel.port1.close());
			const port = hostChannel.port2;
			const records = await Promise.race([remote.register(ctx.plugin_id, [...plugins], Comlink.transfer(port, [port])), failed]);
			// In order, as the plugin made them: the first refusal fails register(ctx), as a
			// throw there would.
			for (const record of records) proxies.apply(record);
		},
		setPlugins(ids) {
			remote.setPlugins([...ids]).catch(() => {});
		},
		async responsive(limitMs) {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)));
			try {
				return await Promise.race([remote.ping().then(() => true), late, failed.catch(() => false)]);
			} finally {
				clearTimeout(timer);
			}
		}
	};
}

/** The page-side proxies of one plugin's registrations, by handle. */
class ProxyRegistrations {
	#undo = new Map<number, () => void>();
	/** What the plugin's context holds of the conversation history, shared by its hooks. */
	readonly #history = new HistorySender();
	readonly #remote: Comlink.Remote<SandboxRuntime>;
	readonly #ctx: PluginContext;
	/** Rejects once the plugin's context is gone: no call waits on it after that. */
	readonly #gone: Promise<never>;

	constructor(remote: Comlink.Remote<SandboxRuntime>, ctx: PluginContext, gone: Promise<never>) {
		this.#remote = remote;
		this.#ctx = ctx;
		this.#gone = gone;
	}

	apply(record: RegistrationRecord): void {
		const call = (...args: unknown[]) => Promise.race([this.#remote.call(record.handle, args), this.#gone]);
		let undo: () => void;
		if (record.kind === 'hook') {
			const observer = isHookName(record.name) && HOOK_KINDS[record.name] === 'observer';
			const send = (payload: unknown) => (carriesHistory(payload) ? this.#callWithHistory(record.handle, payload) : call(payload));
			undo = this.#ctx.register_hook(record.name, observer ? (payload: unknown) => send(payload).then(standIn) : send);
		} else if (record.kind === 'command') {
			undo = this.#ctx.register_command(record.name, (args: unknown, invocation: unknown) => call(args, invocation), record.meta);
		} else {
			const { name, description, parameters } = record;
			const tool = { name, description, parameters, handler: (args: unknown, context: unknown) => call(args, context) };
			undo = this.#ctx.register_tool(tool as Parameters<PluginContext['register_tool']>[0]);
		}
		this.#undo.set(record.handle, undo);
	}

	// Only what the context lacks of the history crosses; after a step it missed, all of it.
	async #callWithHistory(handle: number, payload: PayloadWithHistory): Promise<unknown> {
		const send = () =>
			Promise.race([
				this.#remote.callWithHistory(handle, { ...payload, conversation_history: null }, this.#history.encode(payload.conversation_history)),
				this.#gone
			]);
		let answer = await send();
		if ('resend' in answer) {
			this.#history.forget();
			answer = await send();
		}
		if ('resend' in answer) throw new Error("The plugin's context refused the whole conversation history.");
		return answer.value;
	}

	remove(handle: number): void {
		this.#undo.get(handle)?.();
		this.#undo.delete(handle);
	}
}

type PayloadWithHistory = Record<string, unknown> & { conversation_history: readonly HistoryEntry[] };

function carriesHistory(payload: unknown): payload is PayloadWithHistory {
	return typeof payload === 'object' && payload !== null && Array.isArray((payload as { conversation_history?: unknown }).conversation_history);
}

/** A value of the type an observer returned, for the hook log's note; never read further. */
function standIn(returned: unknown): unknown {
	const value = returned as IgnoredValue | undefined;
	if (!value) return undefined;
	const stands: Record<IgnoredValue['ignored'], unknown> = {
		null: null,
		array: [],
		object: {},
		function: () => {},
		string: '',
		number: 0,
		boolean: false,
		bigint: 0n,
		symbol: Symbol('returned')
	};
	return stands[value.ignored];
}
