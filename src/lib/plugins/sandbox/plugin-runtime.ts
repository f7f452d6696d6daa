// The isolated side of a plugin: imports its checked source, builds the `ctx` its
// register(ctx) receives, and runs its callbacks when the page asks. It runs where the plugin
// runs (a worker in an opaque-origin frame in the app, a MessagePort in tests), so nothing
// here may reach for the page: storage, logging and registrations are calls to the page.
import * as Comlink from 'comlink';
import { copyResult } from '../../hooks/copy-result';
import { deepFreeze } from '../../hooks/freeze-payload';
import { assertHookName, HOOK_KINDS, type HookName } from '../../hooks/hook-map';
import type { ModuleImporter } from '../import-plugin-module';
import type { PluginManifest } from '../plugin-context';
import type { LogLevel } from '../plugin-log-book';
import { readPluginModule, type PluginParts } from '../read-plugin-module';
import { HistoryReceiver } from './history-delta';
import type { CommandMeta, IgnoredValue, RegistrationRecord, SandboxHost, SandboxRuntime, StorageOp } from './sandbox-protocol';

interface Handler {
	fn: (...args: unknown[]) => unknown;
	/** An observer's return is never sent back, only its type. */
	observer: boolean;
	/** A hook callback gets its payload frozen, as in the page (commands and tools get plain copies). */
	hook: boolean;
}

/** Serves one plugin on `endpoint` (one runtime per plugin, never shared). */
export function exposePluginRuntime(endpoint: Comlink.Endpoint, importer: ModuleImporter): void {
	Comlink.expose(createPluginRuntime(importer), endpoint);
}

export function createPluginRuntime(importer: ModuleImporter): SandboxRuntime {
	let parts: PluginParts | null = null;
	const handlers = new Map<number, Handler>();
	let known = new Set<string>();
	const history = new HistoryReceiver();

	async function call(handle: number, args: unknown[]): Promise<unknown> {
		const handler = handlers.get(handle);
		if (!handler) throw new Error('This callback was unregistered.');
		const value = await handler.fn(...(handler.hook ? args.map((arg) => deepFreeze(arg)) : args));
		return handler.observer ? ignored(value) : copyResult(value);
	}

	return {
		async load(source, url) {
			parts = readPluginModule(await importer(source, url));
			return { manifest: parts.manifest };
		},
		async register(pluginId, plugins, hostPort) {
			if (!parts) throw new Error('The plugin module is not loaded.');
			known = new Set(plugins);
			const host = Comlink.wrap<SandboxHost>(hostPort);
			const context = createRemoteContext({ pluginId, manifest: parts.manifest, host, handlers, has: (id) => known.has(id) });
			await parts.register(context.ctx);
			return context.started();
		},
		call,
		async callWithHistory(handle, payload, delta) {
			// Before any await: calls rebuild their histories in the order they were sent.
			const messages = history.receive(delta);
			if (!messages) return { resend: true };
			// In its own place among the fields, as in the page's payload.
			payload.conversation_history = messages;
			return { value: await call(handle, [payload]) };
		},
		setPlugins(ids) {
			known = new Set(ids);
		},
		ping: () => true
	};
}

interface RemoteContextParts {
	pluginId: string;
	manifest: PluginManifest | null;
	host: SandboxHost;
	handlers: Map<number, Handler>;
	has: (id: string) => boolean;
}

/**
 * The plugin's `ctx`, with the same shape and the same immediate checks as the in-page one.
 * Registrations made while register(ctx) runs are kept and handed over when it returns (the
 * page applies them in order and fails the load on a refusal, as a throw in register would);
 * later ones go to the page at once, and a refusal is logged for the plugin's author.
 */
function createRemoteContext({ pluginId, manifest, host, handlers, has }: RemoteContextParts) {
	let next = 1;
	let starting: RegistrationRecord[] | null = [];
	const log = (level: LogLevel, args: unknown[]) => host.log(level, args.map(loggable));

	function add(record: RegistrationRecord, handler: Handler): () => void {
		handlers.set(record.handle, handler);
		if (starting) starting.push(record);
		else host.register(record).catch((error: unknown) => log('error', [`could not register ${record.kind} ${String(record.name)}:`, error]));
		let done = false;
		return () => {
			if (done) return;
			done = true;
			handlers.delete(record.handle);
			if (starting) starting = starting.filter((r) => r !== record);
			else void host.unregister(record.handle).catch(() => {});
		};
	}

	const storage = (op: StorageOp, key?: unknown, value?: unknown) => host.storage(op, key as string, value);

	const ctx = Object.freeze({
		plugin_id: pluginId,
		manifest: manifest ? Object.freeze({ ...manifest }) : null,
		register_hook(name: string, callback: unknown) {
			assertHookName(name);
			if (typeof callback !== 'function') {
				throw new TypeError(`Hook "${name}" from plugin "${pluginId}" needs a function, got ${typeof callback}.`);
			}
			const hook: HookName = name;
			return add({ kind: 'hook', handle: next++, name: hook }, { fn: callback as Handler['fn'], observer: HOOK_KINDS[hook] === 'observer', hook: true });
		},
		register_command(name: string, handler: unknown, meta: CommandMeta = {}) {
			if (typeof handler !== 'function') throw new TypeError(`Command "/${String(name)}" needs a handler function.`);
			const { description, args_hint } = meta ?? {};
			const clean: CommandMeta = {};
			if (description !== undefined) clean.description = String(description);
			if (args_hint !== undefined) clean.args_hint = String(args_hint);
			return add({ kind: 'command', handle: next++, name: String(name), meta: clean }, { fn: handler as Handler['fn'], observer: false, hook: false });
		},
		register_tool(tool: { name: string; description?: string; parameters?: Record<string, unknown>; handler: unknown }) {
			const { name, description, parameters, handler } = (tool ?? {}) as Partial<typeof tool>;
			if (typeof handler !== 'function') {
				throw new TypeError(`Plugin "${pluginId}" cannot register tool ${JSON.stringify(String(name))}: it needs a handler function.`);
			}
			let schema: unknown;
			try {
				schema = structuredClone(parameters);
			} catch {
				throw new TypeError(`Plugin "${pluginId}" cannot register tool ${JSON.stringify(String(name))}: parameters must be plain JSON data (no functions or class instances).`);
			}
			const record: RegistrationRecord = { kind: 'tool', handle: next++, name: plainName(name), description: plainName(description), parameters: schema };
			return add(record, { fn: handler as Handler['fn'], observer: false, hook: false });
		},
		storage: Object.freeze({
			get: (key: string) => storage('get', key),
			set: (key: string, value: unknown) => {
				// Checked here, so the plugin's own stack trace shows where it passed a function.
				try {
					return storage('set', key, structuredClone(value));
				} catch (error) {
					return Promise.reject(error);
				}
			},
			delete: (key: string) => storage('delete', key),
			keys: (prefix?: string) => storage('keys', prefix)
		}),
		log: Object.freeze({
			info: (...args: unknown[]) => log('info', args),
			warn: (...args: unknown[]) => log('warn', args),
			error: (...args: unknown[]) => log('error', args)
		}),
		has_plugin: (id: string) => has(String(id))
	});

	return {
		ctx,
		/** Ends the start-up phase: what was registered so far, for the page to apply. */
		started(): RegistrationRecord[] {
			const records = starting ?? [];
			starting = null;
			return records;
		}
	};
}

/** A name or description as given, when it can be copied; the page's checks word the refusal. */
function plainName(value: unknown): unknown {
	return typeof value === 'function' || typeof value === 'symbol' ? String(value) : value;
}

function ignored(value: unknown): IgnoredValue | undefined {
	if (value === undefined) return undefined;
	if (value === null) return { ignored: 'null' };
	if (Array.isArray(value)) return { ignored: 'array' };
	const type = typeof value;
	return { ignored: type === 'undefined' ? 'object' : type };
}

/** ctx.log takes anything; what cannot be copied is logged as text. */
function loggable(value: unknown): unknown {
	if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
	try {
		return structuredClone(value);
	} catch {
		try {
			return String(value);
		} catch {
			return '[unprintable value]';
		}
	}
}
