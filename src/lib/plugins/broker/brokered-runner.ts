// The page's side of an isolated plugin: opens its context (a sandboxed frame's worker), hands
// the page's end of its channel to the plugin broker, and stands in for the plugin on the hook
// bus. Each hook, command and tool the plugin registers becomes a proxy function in the page
// that asks the broker to call the real one; the bus's choke point bounds those calls in time as
// it bounds in-page ones. Nothing the plugin sends reaches the page: the broker reads it,
// serves its storage and log, and tells the page only of registrations, of counters for the
// plugin's row, and of a plugin it stopped.
import { proxy, releaseProxy, transfer, type Remote } from 'comlink';
import type { PluginContext } from '../plugin-context';
import type { Halt, PluginRunner, StartedPlugin } from '../plugin-runner';
import { ProxyRegistrations, type PluginLink } from '../sandbox/proxy-registrations';
import type { SandboxChannel } from '../sandbox/sandbox-channel';
import type { LoadAnswer, RegistrationRecord } from '../sandbox/wire-protocol';
import type { BrokerApi, PluginEvents } from './broker-protocol';

const STOPPED = 'The plugin was stopped (disabled, reloaded or removed) before it answered.';

/** Each start of a plugin is known to the broker by its own key, whichever runner started it. */
let nextKey = 1;

/** `broker`: the broker to use, started on first use. */
export function brokeredRunner(open: () => SandboxChannel, broker: () => Promise<Remote<BrokerApi>>): PluginRunner {
	return {
		async start(source, url, signal, report) {
			const remote = await broker();
			const key = nextKey++;
			const sandbox = open();
			let halt!: (why: Halt) => void;
			const halted = new Promise<Halt>((resolve) => (halt = resolve));
			let stopped = false;
			let proxies: ProxyRegistrations | null = null;
			const events: PluginEvents = {
				register(record: RegistrationRecord) {
					if (!proxies) throw new Error('The plugin registered before register(ctx) ran.');
					proxies.apply(record);
				},
				unregister: (handle: number) => proxies?.remove(handle),
				halted(why: Halt) {
					if (stopped) return;
					stop(why.reason, false);
					halt(why);
				},
				usage: (usage) => report?.usage(usage)
			};
			const eventsProxy = proxy(events);
			const stop = (reason = STOPPED, tellBroker = true) => {
				if (stopped) return;
				stopped = true;
				if (tellBroker) void remote.detach(key, reason).catch(() => {});
				sandbox.terminate();
				// Nothing more comes from the broker for this plugin.
				queueMicrotask(() => (eventsProxy as unknown as { [releaseProxy]?: () => void })[releaseProxy]?.());
			};
			signal.addEventListener('abort', () => stop(), { once: true });
			if (signal.aborted) stop();
			try {
				await remote.attach(key, transfer(sandbox.port, [sandbox.port]), eventsProxy);
				const link: PluginLink = { ask: (question, kind) => remote.ask(key, question, kind) };
				const { manifest } = await Promise.race([link.ask({ t: 'load', source, url }, 'load') as Promise<LoadAnswer>, sandbox.failed]);
				if (signal.aborted) throw new Error('The plugin took too long to start.');
				return startedPlugin({ remote, key, link, manifest, halted, stop, setProxies: (made) => (proxies = made) });
			} catch (error) {
				stop();
				throw error;
			}
		}
	};
}

interface StartParts {
	remote: Remote<BrokerApi>;
	key: number;
	link: PluginLink;
	manifest: StartedPlugin['manifest'];
	halted: Promise<Halt>;
	stop: () => void;
	setProxies: (proxies: ProxyRegistrations) => void;
}

function startedPlugin({ remote, key, link, manifest, halted, stop, setProxies }: StartParts): StartedPlugin {
	return {
		manifest,
		isolated: true,
		halted,
		stop,
		async register(ctx: PluginContext, plugins, addedAt) {
			const proxies = new ProxyRegistrations(link, ctx);
			setProxies(proxies);
			await remote.serve(key, { pluginId: ctx.plugin_id, addedAt });
			// In order, as the plugin made them: the first refusal fails register(ctx), as a throw there would.
			const records = (await link.ask({ t: 'start', pluginId: ctx.plugin_id, plugins: [...plugins] }, 'records')) as RegistrationRecord[];
			for (const record of records) proxies.apply(record);
		},
		setPlugins(ids) {
			void remote.tell(key, { t: 'plugins', ids: [...ids] }).catch(() => {});
		},
		async responsive(limitMs) {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)));
			try {
				return await Promise.race([link.ask({ t: 'ping' }, 'true').then(() => true, () => false), late]);
			} finally {
				clearTimeout(timer);
			}
		}
	};
}
