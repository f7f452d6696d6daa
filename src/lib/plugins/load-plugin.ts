// Loads one plugin: fetch (or the cached copy when the network is gone), check the sha256
// pin, import, and run register(ctx). Every failure becomes a message for the plugin's row.
import { callWithTimeout, type PluginCaller } from '../hooks/run-hook';
import type { PluginRow } from '../db/schema';
import { fetchPluginSource, PluginLoadError, sha256Hex } from './fetch-plugin-source';
import type { PluginReport, PluginRunner, StartedPlugin } from './plugin-runner';

export interface LoadedModule {
	source: string;
	sha256: string;
	fromCache: boolean;
	/** Started, not yet registered: the caller runs its register(ctx) and stops it when done. */
	plugin: StartedPlugin;
}

export async function loadPluginModule(
	row: Pick<PluginRow, 'url' | 'pinned_sha256' | 'cached_source'>,
	options: {
		fetchImpl?: typeof fetch;
		fetchTimeoutMs?: number;
		importTimeoutMs?: number;
		runner: PluginRunner;
		/** Where the started code reports what it ran into of its budgets. */
		report?: PluginReport;
		/** Told of freshly fetched code that passed its pin, before it starts. */
		onChecked?: (source: string, sha256: string) => Promise<void>;
	}
): Promise<LoadedModule> {
	let source: string;
	let fromCache = false;
	try {
		source = await fetchPluginSource(row.url, { fetchImpl: options.fetchImpl, timeoutMs: options.fetchTimeoutMs });
	} catch (error) {
		// Only when the server is out of reach: an answer such as 404 is reported, not papered over.
		const unreachable = error instanceof PluginLoadError && error.unreachable;
		if (!unreachable || !row.cached_source) throw error;
		source = row.cached_source;
		fromCache = true;
	}
	const sha256 = await sha256Hex(source);
	if (row.pinned_sha256 && row.pinned_sha256 !== sha256) {
		throw new PluginLoadError(
			`The plugin's code has changed: its sha256 is ${sha256}, but it is pinned to ${row.pinned_sha256}. ` +
				'Remove or update the pin if you trust the new code.'
		);
	}
	if (!fromCache) await options.onChecked?.(source, sha256);
	const importMs = options.importTimeoutMs ?? 0;
	// Aborted on a timeout or a failure, so a half-started isolated context does not linger.
	const starting = new AbortController();
	try {
		// A top-level await that never settles (or a loop in the module's top level) would
		// otherwise hold this load (and every wait for it) for good.
		const settled = await callWithTimeout(() => options.runner.start(source, row.url, starting.signal, options.report), importMs);
		if (settled.timedOut) {
			starting.abort();
			throw new PluginLoadError(`The plugin module did not finish loading within ${importMs / 1000} s (a top-level await that never settles?).`);
		}
		return { source, sha256, fromCache, plugin: settled.value as StartedPlugin };
	} catch (error) {
		starting.abort();
		throw importFailure(error);
	}
}

/** Says why a module could not be imported; errors may come across the isolation boundary as copies. */
function importFailure(error: unknown): PluginLoadError {
	if (error instanceof PluginLoadError) return error;
	const name = error instanceof Error ? error.name : '';
	const message = error instanceof Error ? error.message : String(error);
	if (name === 'PluginLoadError') return new PluginLoadError(message);
	return new PluginLoadError(name === 'SyntaxError' ? `The plugin has a syntax error: ${message}` : `The plugin module could not be imported: ${message}`);
}

/**
 * Runs register(ctx) through the hook bus's choke point (the hook timeout, a line in the hook
 * log); throws a PluginLoadError on a throw or a hang.
 */
export async function runRegister(caller: PluginCaller, pluginId: string, register: (ctx: unknown) => unknown, ctx: unknown): Promise<void> {
	// A fresh target per load: a timed-out register(ctx) has already failed the load, and the
	// next Reload, with fresh code, deserves its own try.
	const target = { plugin_id: pluginId, hook: 'register(ctx)', suppressedUntil: -Infinity };
	const result = await caller.callPlugin(target, () => register(ctx), { read: () => undefined });
	if (result.outcome === 'timeout') throw new PluginLoadError(`register(ctx) did not finish within ${result.timeoutMs / 1000} s.`);
	if (result.outcome !== 'ok') throw new PluginLoadError(`register(ctx) threw: ${result.error}`);
}
