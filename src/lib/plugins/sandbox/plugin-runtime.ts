// The isolated side of a plugin: imports its checked source, builds the `ctx` its
// register(ctx) receives, and runs its callbacks when the page asks. It runs where the plugin
// runs (a worker in an opaque-origin frame in the app, a MessagePort in tests), so nothing
// here may reach for the page: storage, logging and registrations are requests to the page,
// in the fixed protocol of wire-protocol.ts. The page checks all of it again; the checks here
// give an honest plugin its error at once, at the line that caused it.
import { copyResult } from '../../hooks/copy-result';
import { deepFreeze } from '../../hooks/freeze-payload';
import type { ModuleImporter } from '../import-plugin-module';
import { MAX_PENDING_REQUESTS, tooManyPendingMessage } from '../plugin-budgets';
import { readPluginModule, type PluginParts } from '../read-plugin-module';
import { HistoryReceiver } from './history-delta';
import { createRemoteContext, type Handler, type PageLink } from './remote-context';
import { toWireError, type Answer, type ContextMessage, type ContextQuestion, type IgnoredValue, type PageMessage, type PageRequest } from './wire-protocol';

/** How the runtime talks to the page: taken before any plugin code runs, so a plugin that patches globals cannot reroute it. */
export interface RuntimeEndpoint {
	post(message: ContextMessage): void;
	listen(receive: (data: unknown) => void): void;
}

/** Serves one plugin on `endpoint` (one runtime per plugin, never shared). Returns how to report an uncaught error. */
export function servePluginRuntime(endpoint: RuntimeEndpoint, importer: ModuleImporter): (error: unknown) => void {
	const runtime = new PluginRuntime(endpoint, importer);
	endpoint.listen((data) => runtime.receive(data));
	return (error) => runtime.reportUncaught(error);
}

class PluginRuntime {
	#parts: PluginParts | null = null;
	readonly #handlers = new Map<number, Handler>();
	#known = new Set<string>();
	readonly #history = new HistoryReceiver();
	readonly #asked = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
	#nextId = 1;
	#link: ReturnType<typeof createRemoteContext> | null = null;
	readonly #endpoint: RuntimeEndpoint;
	readonly #importer: ModuleImporter;

	constructor(endpoint: RuntimeEndpoint, importer: ModuleImporter) {
		this.#endpoint = endpoint;
		this.#importer = importer;
	}

	receive(data: unknown): void {
		const message = data as PageMessage;
		if (typeof message !== 'object' || message === null) return;
		if (message.t === 'answer') return this.#settle(message);
		if (message.t === 'plugins') {
			this.#known = new Set(message.ids);
			return;
		}
		const { id } = message;
		// Each request runs to its first await before the next is read: histories rebuild in the order they were sent.
		let work: Promise<unknown>;
		try {
			work = Promise.resolve(this.#run(message));
		} catch (error) {
			work = Promise.reject(error);
		}
		work.then(
			(value) => this.#reply({ t: 'answer', id, ok: true, value }),
			(error: unknown) => this.#reply({ t: 'answer', id, ok: false, error: toWireError(error, true) })
		);
	}

	/** An error no callback caught (a timer's, a promise's): the plugin's author reads it in its log. */
	reportUncaught(error: unknown): void {
		const { name, message } = toWireError(error, false);
		this.#link?.log('error', [`Uncaught ${name}: ${message}`]);
	}

	#run(request: Exclude<PageRequest, { t: 'plugins' }>): unknown {
		switch (request.t) {
			case 'load':
				return this.#load(request.source, request.url);
			case 'start':
				return this.#start(request.pluginId, request.plugins);
			case 'call':
				return this.#call(request.handle, request.args);
			case 'history': {
				const messages = this.#history.receive(request.delta);
				if (!messages) return { resend: true };
				// In its own place among the fields, as in the page's payload.
				request.payload.conversation_history = messages;
				return this.#call(request.handle, [request.payload]).then((value) => ({ value }));
			}
			case 'ping':
				return true;
		}
	}

	async #load(source: string, url: string) {
		this.#parts = readPluginModule(await this.#importer(source, url));
		return { manifest: this.#parts.manifest };
	}

	async #start(pluginId: string, plugins: string[]) {
		const parts = this.#parts;
		if (!parts) throw new Error('The plugin module is not loaded.');
		this.#known = new Set(plugins);
		const page: PageLink = { ask: (message) => this.#ask(message), tell: (message) => this.#endpoint.post(message), waiting: () => this.#asked.size };
		this.#link = createRemoteContext({ pluginId, manifest: parts.manifest, page, handlers: this.#handlers, has: (id) => this.#known.has(id) });
		await parts.register(this.#link.ctx);
		return this.#link.started();
	}

	async #call(handle: number, args: unknown[]): Promise<unknown> {
		const handler = this.#handlers.get(handle);
		if (!handler) throw new Error('This callback was unregistered.');
		const value = await handler.fn(...(handler.hook ? args.map((arg) => deepFreeze(arg)) : args));
		return handler.observer ? ignored(value) : copyResult(value);
	}

	#ask(message: ContextQuestion): Promise<unknown> {
		// Refused here, at the plugin's own line, rather than sent to wait among the page's others.
		if (this.#asked.size >= MAX_PENDING_REQUESTS) return Promise.reject(new Error(tooManyPendingMessage()));
		const id = this.#nextId++;
		return new Promise((resolve, reject) => {
			this.#asked.set(id, { resolve, reject });
			try {
				this.#endpoint.post({ ...message, id });
			} catch (error) {
				this.#asked.delete(id);
				reject(error);
			}
		});
	}

	#settle(answer: Answer): void {
		const waiting = this.#asked.get(answer.id);
		if (!waiting) return;
		this.#asked.delete(answer.id);
		if (answer.ok) return waiting.resolve(answer.value);
		const error = new Error(answer.error.message);
		error.name = answer.error.name;
		waiting.reject(error);
	}

	#reply(answer: Answer): void {
		try {
			this.#endpoint.post(answer);
		} catch (error) {
			// A value the page cannot take fails that call, as a throw would.
			if (answer.ok) this.#endpoint.post({ t: 'answer', id: answer.id, ok: false, error: toWireError(error, false) });
		}
	}
}

function ignored(value: unknown): IgnoredValue | undefined {
	if (value === undefined) return undefined;
	if (value === null) return { ignored: 'null' };
	if (Array.isArray(value)) return { ignored: 'array' };
	const type = typeof value;
	return { ignored: type === 'undefined' ? 'object' : type };
}
