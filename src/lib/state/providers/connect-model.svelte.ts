// "Connect a model" on the empty chat: looks for Ollama and LM Studio on their default ports,
// and either offers the models found, says exactly what to change when a server runs but does
// not allow this page, or leaves the user with the provider form.
import { detectServer, LOCAL_SERVERS, originSetting, type Detection } from './local-servers';
import type { ProviderConfig } from '../../providers/types';
import type { SettingsState } from '../settings/settings.svelte';

export type ConnectState =
	| { step: 'idle' }
	| { step: 'looking' }
	| { step: 'done'; found: Extract<Detection, { state: 'ready' }>[]; blocked: Extract<Detection, { state: 'blocked' }>[] };

export class ConnectModel {
	state = $state<ConnectState>({ step: 'idle' });
	#settings: SettingsState;

	constructor(settings: SettingsState) {
		this.#settings = settings;
	}

	async look(fetchImpl?: typeof fetch): Promise<ConnectState> {
		this.state = { step: 'looking' };
		const results = await Promise.all(LOCAL_SERVERS.map((server) => detectServer(server, fetchImpl)));
		this.state = {
			step: 'done',
			found: results.filter((r): r is Extract<Detection, { state: 'ready' }> => r.state === 'ready'),
			blocked: results.filter((r): r is Extract<Detection, { state: 'blocked' }> => r.state === 'blocked')
		};
		return this.state;
	}

	/** What to change so a blocking server lets this page in. */
	advice(detection: Extract<Detection, { state: 'blocked' }>, origin: string): string {
		return `${detection.server.label} is running on this computer but does not allow this page: ${originSetting(detection.server.preset, origin)}, then press Connect a model again.`;
	}

	/**
	 * Adds the server's model as a provider (or finds the one already added) and makes it the
	 * default for new sessions. Returns the provider and model to use now.
	 */
	async use(detection: Extract<Detection, { state: 'ready' }>, model: string): Promise<{ provider: string; model: string }> {
		const providers = this.#settings.get('providers');
		const existing = providers.find((p) => p.base_url === detection.server.baseUrl && p.model === model);
		const config: ProviderConfig = existing ?? {
			id: crypto.randomUUID(),
			preset: detection.server.preset,
			label: detection.server.label,
			base_url: detection.server.baseUrl,
			api_key: '',
			model
		};
		const saved = await this.#settings.update({
			providers: existing ? providers : [...providers, config],
			default_provider: config.id,
			default_model: model
		});
		if (!saved) throw new Error(this.#settings.save.state === 'failed' ? this.#settings.save.error : 'The provider could not be saved.');
		this.state = { step: 'idle' };
		return { provider: config.id, model };
	}
}
