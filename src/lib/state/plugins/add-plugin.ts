// Adding a plugin from the Plugins page: its address and pin checked, then, once the user
// confirmed, a URL that answers with anything but JavaScript refused before anything is stored.
// Loaded with the page, not with the app.
import type { PluginsState } from './plugins.svelte';

/** Checks the URL and pin, then waits for the user to confirm (see PluginsState.pending). */
export async function requestAdd(plugins: PluginsState, input: string, pin: string): Promise<void> {
	const [{ resolvePluginUrl }, { normalizePin }] = await Promise.all([import('../../plugins/plugin-url'), import('../../plugins/fetch-plugin-source')]);
	const url = resolvePluginUrl(input, location.origin);
	if (plugins.rows.some((row) => row.url === url)) throw new Error('This plugin is already added.');
	plugins.pending = { url, pin: normalizePin(pin) };
}

/** Adds the plugin the user confirmed, under an id its URL gives, and runs it. */
export async function confirmAdd(plugins: PluginsState): Promise<void> {
	const pending = plugins.pending;
	plugins.pending = null;
	if (!pending) return;
	const [{ pluginIdFromUrl }] = await Promise.all([import('../../plugins/plugin-url'), refuseMissing(pending.url)]);
	const id = pluginIdFromUrl(pending.url, new Set(plugins.rows.map((r) => r.id)));
	await plugins.add(id, pending);
}

/**
 * A URL whose server answers with an error (404) or with something that is not JavaScript is
 * refused before anything is stored. One that cannot be reached at all is added, and its row
 * says why it does not load (a cross-origin setting to fix, or a server that is down for now).
 */
async function refuseMissing(url: string): Promise<void> {
	const { fetchPluginSource, PluginLoadError } = await import('../../plugins/fetch-plugin-source');
	try {
		await fetchPluginSource(url);
	} catch (error) {
		if (!(error instanceof PluginLoadError) || !error.unreachable) throw error;
	}
}
