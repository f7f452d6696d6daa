// What a plugin's row says of it in this tab, and how long start-up waits for plugins.
import type { Registered } from '../../plugins/plugin-context';

export interface PluginStatus {
	/** `stopped`: its code stopped answering and was ended in this tab (Reload starts it again). */
	state: 'loading' | 'loaded' | 'disabled' | 'failed' | 'stopped' | 'safe';
	error?: string;
	registered?: Registered;
	fromCache?: boolean;
	/** Why the app started it again on its own, for its row. */
	restarted?: string;
}

/**
 * How long the first turn or command after start-up waits for plugins still loading, so a
 * plugin's pre_llm_call does not miss it. After that nothing waits for them.
 */
export const STARTUP_PLUGIN_WAIT_MS = 5_000;
