// The running plugins of this tab: loads rows into live registrations and unloads them, so
// enable, disable, reload and remove each undo everything a plugin registered.
import type { PalimpsestDb } from '../db/database';
import { updatePlugin } from '../db/plugin-verbs';
import type { PluginRow } from '../db/schema';
import type { HookBus } from '../hooks/hook-bus';
import { defaultImporter, type ModuleImporter } from './import-plugin-module';
import { loadPluginModule, runRegister } from './load-plugin';
import { createPluginContext, type CommandSink, type PluginManifest, type Registered } from './plugin-context';
import { createPluginStorage } from './plugin-storage';
import type { ToolRegistry } from './plugin-tools';

export interface LoadedPlugin {
	id: string;
	manifest: PluginManifest | null;
	registered: Registered;
	sha256: string;
	fromCache: boolean;
	dispose(): void;
}

export type LoadOutcome = { ok: true; plugin: LoadedPlugin } | { ok: false; error: string };

export interface PluginHostParts {
	db: PalimpsestDb;
	hooks: HookBus;
	commands: CommandSink;
	tools: ToolRegistry;
	timeoutMs: () => number;
	importer?: ModuleImporter;
	fetchImpl?: typeof fetch;
	logger?: Pick<Console, 'info' | 'warn' | 'error'>;
}

export class PluginHost {
	#loaded = new Map<string, LoadedPlugin>();
	readonly #parts: PluginHostParts;

	constructor(parts: PluginHostParts) {
		this.#parts = parts;
	}

	isLoaded(id: string): boolean {
		return this.#loaded.has(id);
	}

	get(id: string): LoadedPlugin | undefined {
		return this.#loaded.get(id);
	}

	async load(row: PluginRow): Promise<LoadOutcome> {
		this.unload(row.id);
		const { db, hooks, commands, tools } = this.#parts;
		let context: ReturnType<typeof createPluginContext> | null = null;
		try {
			const mod = await loadPluginModule(row, {
				fetchImpl: this.#parts.fetchImpl,
				importer: this.#parts.importer ?? defaultImporter()
			});
			context = createPluginContext({
				pluginId: row.id,
				manifest: mod.manifest,
				hooks,
				commands,
				tools,
				storage: createPluginStorage(db, row.id),
				hasPlugin: (id) => this.isLoaded(id),
				logger: this.#parts.logger
			});
			await runRegister(mod.register, context.ctx, this.#parts.timeoutMs());
			const plugin: LoadedPlugin = {
				id: row.id,
				manifest: mod.manifest,
				registered: context.registered,
				sha256: mod.sha256,
				fromCache: mod.fromCache,
				dispose: context.dispose
			};
			this.#loaded.set(row.id, plugin);
			await updatePlugin(db, row.id, {
				cached_source: mod.source,
				cached_sha256: mod.sha256,
				manifest: mod.manifest,
				last_error: null
			});
			return { ok: true, plugin };
		} catch (error) {
			context?.dispose();
			const message = error instanceof Error ? error.message : String(error);
			await updatePlugin(db, row.id, { last_error: message });
			return { ok: false, error: message };
		}
	}

	unload(id: string): void {
		const plugin = this.#loaded.get(id);
		if (!plugin) return;
		this.#loaded.delete(id);
		plugin.dispose();
		this.#parts.hooks.unregisterPlugin(id);
	}

	unloadAll(): void {
		for (const id of [...this.#loaded.keys()]) this.unload(id);
	}
}
