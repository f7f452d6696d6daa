// Loads one plugin: fetch (or the cached copy when the network is gone), check the sha256
// pin, import, and run register(ctx). Every failure becomes a message for the plugin's row.
import { callWithTimeout, type PluginCaller } from '../hooks/run-hook';
import type { PluginRow } from '../db/schema';
import { fetchPluginSource, PluginLoadError, sha256Hex } from './fetch-plugin-source';
import type { ModuleImporter } from './import-plugin-module';
import type { PluginManifest } from './plugin-context';
import { readPluginModule } from './read-plugin-module';

export interface LoadedModule {
	source: string;
	sha256: string;
	fromCache: boolean;
	register: (ctx: unknown) => unknown;
	manifest: PluginManifest | null;
}

export async function loadPluginModule(
	row: Pick<PluginRow, 'url' | 'pinned_sha256' | 'cached_source'>,
	options: { fetchImpl?: typeof fetch; fetchTimeoutMs?: number; importTimeoutMs?: number; importer: ModuleImporter }
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
	let mod: Record<string, unknown>;
	const importMs = options.importTimeoutMs ?? 0;
	try {
		// A top-level await that never settles would otherwise hold this load (and every wait
		// for it) for good.
		const settled = await callWithTimeout(() => options.importer(source, row.url), importMs);
		if (settled.timedOut) {
			throw new PluginLoadError(`The plugin module did not finish loading within ${importMs / 1000} s (a top-level await that never settles?).`);
		}
		mod = settled.value as Record<string, unknown>;
	} catch (error) {
		if (error instanceof PluginLoadError) throw error;
		const message = error instanceof Error ? error.message : String(error);
		throw new PluginLoadError(
			error instanceof SyntaxError
				? `The plugin has a syntax error: ${message}`
				: `The plugin module could not be imported: ${message}`
		);
	}
	return { source, sha256, fromCache, ...readPluginModule(mod) };
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
