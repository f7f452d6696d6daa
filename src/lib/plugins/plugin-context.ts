// Builds the `ctx` a plugin's register(ctx) receives. Everything it registers is tracked so
// that disabling, reloading or removing the plugin undoes all of it.
import type { HookBus } from '../hooks/hook-bus';
import { LOG_BURST, LOG_LINES_PER_SECOND, MAX_REGISTRATIONS, RateBudget, tooManyRegistrationsMessage } from './plugin-budgets';
import type { LogLevel } from './plugin-log-book';
import type { PluginStorage } from './plugin-storage';
import type { ToolRegistry } from './plugin-tools';

export interface PluginManifest {
	name?: string;
	version?: string;
	description?: string;
}

export interface CommandSink {
	add(
		pluginId: string,
		name: string,
		handler: unknown,
		meta: { description?: string; args_hint?: string }
	): () => void;
}

export interface Registered {
	hooks: string[];
	commands: string[];
	tools: string[];
}

export interface ContextParts {
	pluginId: string;
	manifest: PluginManifest | null;
	hooks: HookBus;
	commands: CommandSink;
	tools: ToolRegistry;
	/** Builds `ctx.storage`; it must close (reject every call) once `isOpen` turns false. */
	storage: (isOpen: () => boolean) => PluginStorage;
	hasPlugin: (id: string) => boolean;
	logger?: Pick<Console, 'info' | 'warn' | 'error'>;
	/** Also receives every `ctx.log` line (the Plugins page shows the recent ones). */
	onLog?: (level: LogLevel, args: unknown[]) => void;
	/** Told how many `ctx.log` lines were dropped for going over LOG_LINES_PER_SECOND. */
	onLogsDropped?: (count: number) => void;
	/** The clock of the log budget (tests drive it). */
	now?: () => number;
}

export function createPluginContext(parts: ContextParts) {
	const undo: Array<() => void> = [];
	const registered: Registered = { hooks: [], commands: [], tools: [] };
	const logger = parts.logger ?? console;
	const tag = `[plugin ${parts.pluginId}]`;
	const logBudget = new RateBudget(LOG_LINES_PER_SECOND, LOG_BURST, parts.now);
	let disposed = false;

	function track(list: string[], name: string, remove: () => void): () => void {
		list.push(name);
		let done = false;
		const once = () => {
			if (done) return;
			done = true;
			remove();
			list.splice(list.indexOf(name), 1);
		};
		undo.push(once);
		return once;
	}

	function log(level: LogLevel, args: unknown[]) {
		// A plugin logging in a loop would otherwise fill the console and the Plugins page without end.
		if (!logBudget.take()) {
			parts.onLogsDropped?.(1);
			return;
		}
		logger[level](tag, ...args);
		// Logging is the plugin's way to tell its author something: a broken sink must not throw at it.
		try {
			parts.onLog?.(level, args);
		} catch (error) {
			logger.warn(tag, 'could not keep this log line', error);
		}
	}

	function live() {
		if (disposed) throw new Error(`Plugin "${parts.pluginId}" is unloaded; it can no longer register anything.`);
		const count = registered.hooks.length + registered.commands.length + registered.tools.length;
		if (count >= MAX_REGISTRATIONS) throw new RangeError(tooManyRegistrationsMessage(parts.pluginId));
	}

	const ctx = Object.freeze({
		plugin_id: parts.pluginId,
		manifest: parts.manifest ? Object.freeze({ ...parts.manifest }) : null,
		register_hook(name: string, callback: unknown) {
			live();
			return track(registered.hooks, String(name), parts.hooks.register(parts.pluginId, String(name), callback));
		},
		register_command(name: string, handler: unknown, meta: { description?: string; args_hint?: string } = {}) {
			live();
			return track(registered.commands, String(name), parts.commands.add(parts.pluginId, String(name), handler, meta ?? {}));
		},
		register_tool(tool: { name: string; description?: string; parameters?: Record<string, unknown>; handler: unknown }) {
			live();
			// Passed on unconverted: the registry checks what the plugin really gave, and copies the schema.
			const { name, description, parameters, handler } = (tool ?? {}) as Partial<typeof tool>;
			const remove = parts.tools.add({ plugin_id: parts.pluginId, name, description, parameters, handler });
			return track(registered.tools, String(name), remove);
		},
		storage: parts.storage(() => !disposed),
		log: Object.freeze({
			info: (...args: unknown[]) => log('info', args),
			warn: (...args: unknown[]) => log('warn', args),
			error: (...args: unknown[]) => log('error', args)
		}),
		has_plugin: (id: string) => parts.hasPlugin(String(id))
	});

	return {
		ctx,
		registered,
		dispose() {
			disposed = true;
			for (const fn of undo.splice(0).reverse()) fn();
		}
	};
}

export type PluginContext = ReturnType<typeof createPluginContext>['ctx'];
