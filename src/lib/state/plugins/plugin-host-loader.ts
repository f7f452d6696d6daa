// The plugin host's code (fetching, isolating and budgeting plugins) loads the first time
// something needs it: at start-up only when the profile has a plugin switched on, else when a
// plugin is added or switched on, or the Plugins page opens. Until then no plugin runs in this
// tab, so what would ask the host (a timed-out call's check, the broker's hook log) has nothing to do.
import type { PluginHost } from '../../plugins/plugin-host';

export class PluginHostLoader {
	/** The host once its code has loaded; null until then. */
	current: PluginHost | null = null;
	#loading: Promise<PluginHost> | null = null;
	readonly #create: () => Promise<PluginHost>;

	constructor(create: () => Promise<PluginHost>) {
		this.#create = create;
	}

	/** The host, its code loaded on the first call; a load that failed (offline, say) is tried again on the next. */
	load(): Promise<PluginHost> {
		this.#loading ??= this.#create().then(
			(host) => (this.current = host),
			(error: unknown) => {
				this.#loading = null;
				throw error;
			}
		);
		return this.#loading;
	}
}
