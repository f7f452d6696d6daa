// The `ctx` of an isolated plugin, with the same shape and the same immediate checks as the
// in-page one, and the page's budgets applied before anything is sent: an honest plugin gets
// its error at the line that caused it, and never trips the page's own checks. What it sends
// is text or a structured clone made here, never a plugin's own object.
import { checkPlainData } from '../../hooks/plain-data';
import { assertHookName, HOOK_KINDS, type HookName } from '../../hooks/hook-map';
import { formatLogArgs } from '../format-log-args';
import { LOG_BURST, LOG_LINES_PER_SECOND, MAX_PENDING_REQUESTS, MAX_REGISTRATIONS, MAX_VALUE_BYTES, RateBudget, tooManyPendingMessage, tooManyRegistrationsMessage } from '../plugin-budgets';
import type { PluginManifest } from '../plugin-context';
import type { LogLevel } from '../plugin-log-book';
import { checkStorageKey } from '../storage-key';
import { toolBoundsMessage, toolBoundsProblem } from '../tool-bounds';
import type { CommandMeta, ContextNotice, ContextQuestion, RegistrationRecord, StorageOp } from './wire-protocol';

export interface Handler {
	fn: (...args: unknown[]) => unknown;
	/** An observer's return is never sent back, only its type. */
	observer: boolean;
	/** A hook callback gets its payload frozen, as in the page (commands and tools get plain copies). */
	hook: boolean;
}

/** The page, as the context reaches it. */
export interface PageLink {
	ask(message: ContextQuestion): Promise<unknown>;
	tell(message: ContextNotice): void;
	/** How many questions wait for the page's answer now. */
	waiting?(): number;
}

interface RemoteContextParts {
	pluginId: string;
	manifest: PluginManifest | null;
	page: PageLink;
	handlers: Map<number, Handler>;
	has: (id: string) => boolean;
}

/** Log arguments past this size go as one line of text. */
const MAX_LOG_BYTES = 64 * 1024;

// Taken when this module loads, before any plugin code: a plugin that replaces the global
// does not change what its values are checked with.
const clone = structuredClone;

/**
 * Registrations made while register(ctx) runs are kept and handed over when it returns (the
 * page applies them in order and fails the load on a refusal, as a throw in register would);
 * later ones go to the page at once, and a refusal is logged for the plugin's author.
 */
export function createRemoteContext({ pluginId, manifest, page, handlers, has }: RemoteContextParts) {
	let next = 1;
	let starting: RegistrationRecord[] | null = [];
	const budget = new RateBudget(LOG_LINES_PER_SECOND, LOG_BURST);
	let dropped = 0;
	let flush: ReturnType<typeof setTimeout> | undefined;

	// Lines dropped with no line after them are still counted on the plugin's row, a second later.
	function countDropped(): void {
		clearTimeout(flush);
		flush = undefined;
		if (!dropped) return;
		page.tell({ t: 'log', level: 'info', args: [], dropped });
		dropped = 0;
	}

	function log(level: LogLevel, args: unknown[]): void {
		if (!budget.take()) {
			dropped++;
			flush ??= setTimeout(countDropped, 1000);
			return;
		}
		clearTimeout(flush);
		flush = undefined;
		let values = args.map(loggable);
		if (!checkPlainData(values, { maxBytes: MAX_LOG_BYTES }).ok) values = [formatLogArgs(values)];
		page.tell({ t: 'log', level, args: values, dropped });
		dropped = 0;
	}

	function add(record: RegistrationRecord, handler: Handler): () => void {
		if (handlers.size >= MAX_REGISTRATIONS) throw new RangeError(tooManyRegistrationsMessage(pluginId));
		handlers.set(record.handle, handler);
		if (starting) starting.push(record);
		else page.ask({ t: 'register', record }).catch((error: unknown) => log('error', [`could not register ${record.kind} ${String(record.name)}:`, error]));
		let done = false;
		return () => {
			if (done) return;
			done = true;
			handlers.delete(record.handle);
			if (starting) starting = starting.filter((r) => r !== record);
			else page.tell({ t: 'unregister', handle: record.handle });
		};
	}

	/** A tool over the bounds is refused here, at the plugin's line, before a byte of it crosses; its row counts it. */
	function refuseOversized(name: unknown, description: unknown, parameters: unknown): void {
		const over = toolBoundsProblem({ name, description, parameters });
		if (!over) return;
		const reason = toolBoundsMessage(pluginId, name, over);
		page.tell({ t: 'tool-refused', reason });
		throw new RangeError(reason);
	}

	function storage(op: StorageOp, key: unknown, ...value: unknown[]): Promise<unknown> {
		// Checked here, so the plugin's own stack trace shows where it passed a bad key or value.
		try {
			// Refused before its value is copied: a plugin calling in a loop spends no more on it than this.
			if ((page.waiting?.() ?? 0) >= MAX_PENDING_REQUESTS) throw new Error(tooManyPendingMessage());
			// A prefix crosses as text, as the page's storage reads it.
			const name = op === 'keys' ? (key === undefined ? undefined : String(key)) : checkStorageKey(key);
			if (!value.length) return page.ask({ t: 'storage', op, key: name });
			const copy = clone(value[0]);
			const check = checkPlainData(copy, { maxBytes: MAX_VALUE_BYTES });
			if (!check.ok) throw new RangeError(`Plugin "${pluginId}" cannot store this value: ${check.reason}.`);
			return page.ask({ t: 'storage', op, key: name, value: copy });
		} catch (error) {
			return Promise.reject(error);
		}
	}

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
			// A look at the plugin's own object first: a tool of megabytes is refused without copying it.
			refuseOversized(name, description, parameters);
			let schema: unknown;
			try {
				schema = clone(parameters);
			} catch {
				throw new TypeError(`Plugin "${pluginId}" cannot register tool ${JSON.stringify(String(name))}: parameters must be plain JSON data (no functions or class instances).`);
			}
			let text: { name: unknown; description: unknown };
			try {
				text = { name: copyName(name), description: copyName(description) };
			} catch {
				throw new TypeError(`Plugin "${pluginId}" cannot register tool ${JSON.stringify(String(name))}: its name and description must be text.`);
			}
			// And the copy, which is what crosses.
			refuseOversized(text.name, text.description, schema);
			const record: RegistrationRecord = { kind: 'tool', handle: next++, ...text, parameters: schema };
			return add(record, { fn: handler as Handler['fn'], observer: false, hook: false });
		},
		storage: Object.freeze({
			get: (key: string) => storage('get', key),
			set: (key: string, value: unknown) => storage('set', key, value),
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
		log,
		/** Ends the start-up phase: what was registered so far, for the page to apply. */
		started(): RegistrationRecord[] {
			const records = starting ?? [];
			starting = null;
			return records;
		}
	};
}

/**
 * A copy of a name or description as given (the page's checks word a refusal of what is not
 * text): never the plugin's own object, whose getters would run again when it is sent.
 */
function copyName(value: unknown): unknown {
	return typeof value === 'function' || typeof value === 'symbol' ? String(value) : clone(value);
}

/** ctx.log takes anything; what cannot be copied is logged as text. */
function loggable(value: unknown): unknown {
	if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
	try {
		return clone(value);
	} catch {
		try {
			return String(value);
		} catch {
			return '[unprintable value]';
		}
	}
}
