// What the app takes from an imported plugin module: its register(ctx) function (named, or on
// the default export) and its manifest, cleaned. Shared by the loader and the test kit.
import { PluginLoadError } from './fetch-plugin-source';
import type { PluginManifest } from './plugin-context';

export interface PluginParts {
	register: (ctx: unknown) => unknown;
	manifest: PluginManifest | null;
}

export function readPluginModule(mod: Record<string, unknown>): PluginParts {
	const fallback = (mod.default ?? {}) as Record<string, unknown>;
	const register = mod.register ?? fallback.register;
	if (typeof register !== 'function') {
		throw new PluginLoadError('The module does not export a register(ctx) function (named, or on its default export).');
	}
	return { register: register as PluginParts['register'], manifest: readManifest(mod.manifest ?? fallback.manifest) };
}

/** The manifest's known fields, as trimmed text of at most 300 characters; anything else is dropped. */
export function readManifest(value: unknown): PluginManifest | null {
	if (!value || typeof value !== 'object') return null;
	const raw = value as Record<string, unknown>;
	const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 300) : undefined);
	return { name: text(raw.name), version: text(raw.version), description: text(raw.description) };
}
