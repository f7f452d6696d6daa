// The provider form, to add a provider or edit a saved one: preset defaults, validation, and
// a connection test that lists the provider's models for the Model field (or says what to
// check when the browser cannot reach it).
import { PRESETS } from '../../providers/presets';
import { defaultProviderName, providerName } from '../../providers/provider-name';
import { loadCode } from '../chat/turn-code';
import type { ProviderConfig, ProviderPreset } from '../../providers/types';
import type { SettingsState } from '../settings/settings.svelte';
import { explainUnreachable } from './local-servers';

// The form's preset labels and the providers' names, for the component that lists them.
export { PRESETS, providerName };

/** A provider's model as saved by the form, and whether new sessions now use it. */
export interface SavedModel {
	provider: string;
	model: string;
	isDefault: boolean;
}

export const PRESET_ORDER: ProviderPreset[] = [
	'openai',
	'openai_chat',
	'anthropic',
	'openrouter',
	'ollama',
	'lmstudio',
	'llamacpp',
	'vllm',
	'custom',
	'wllama'
];

export class ProviderForm {
	preset = $state<ProviderPreset>('openai');
	baseUrl = $state(PRESETS.openai.baseUrl);
	apiKey = $state('');
	model = $state(PRESETS.openai.defaultModel);
	/** What the user calls the provider; '' for the default, its preset and host. */
	name = $state('');
	/** Its models read text only: a message with images asks before it goes to them. */
	textOnly = $state(false);
	defaultName = $derived(defaultProviderName(PRESETS[this.preset].label, this.baseUrl.trim()));
	/** The models the server listed when the connection was tested, offered in the Model field. */
	models = $state<string[]>([]);
	testing = $state(false);
	result = $state<{ ok: boolean; text: string } | null>(null);
	/** The saved provider being edited (its key is kept unless a new one is typed), or null to add one. */
	editing = $state<ProviderConfig | null>(null);
	#settings: SettingsState;

	constructor(settings: SettingsState) {
		this.#settings = settings;
	}

	choosePreset(preset: ProviderPreset): void {
		this.preset = preset;
		this.baseUrl = PRESETS[preset].baseUrl;
		this.model = PRESETS[preset].defaultModel;
		this.models = [];
		this.result = null;
	}

	/** Fills the form with a saved provider, to change it in place. */
	edit(config: ProviderConfig): void {
		this.editing = config;
		this.preset = config.preset;
		this.baseUrl = config.base_url;
		this.model = config.model;
		this.name = config.name ?? '';
		this.textOnly = config.text_only === true;
		this.models = [];
		this.apiKey = '';
		this.result = null;
	}

	/** Back to an empty form for a new provider. */
	reset(): void {
		this.editing = null;
		this.apiKey = '';
		this.name = '';
		this.textOnly = false;
		this.choosePreset('openai');
	}

	/** A config from the form, or an error message saying what to fix. */
	config(): ProviderConfig | string {
		const config = this.#connection();
		if (typeof config === 'string') return config;
		if (!config.model) return 'Enter the model to use, or press Test connection to list the models of the server.';
		return config;
	}

	/** What a connection needs (the model may still be empty: the test lists them). */
	#connection(): ProviderConfig | string {
		const baseUrl = this.baseUrl.trim().replace(/\/+$/, '');
		try {
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- validation only, not state
			const url = new URL(baseUrl);
			if (!['http:', 'https:'].includes(url.protocol)) return 'The base URL must start with http:// or https://.';
		} catch {
			return 'Enter the provider\u2019s base URL, for example https://api.openai.com/v1.';
		}
		const apiKey = this.apiKey.trim() || (this.editing?.preset === this.preset ? this.editing.api_key : '');
		if (PRESETS[this.preset].needsKey && !apiKey) return `${PRESETS[this.preset].label} needs an API key.`;
		return {
			id: this.editing?.id ?? crypto.randomUUID(),
			preset: this.preset,
			label: PRESETS[this.preset].label,
			base_url: baseUrl,
			api_key: apiKey,
			model: this.model.trim(),
			...(this.name.trim() ? { name: this.name.trim() } : {}),
			...(this.textOnly ? { text_only: true } : {})
		};
	}

	async test(): Promise<void> {
		const config = this.#connection();
		if (typeof config === 'string') {
			this.result = { ok: false, text: config };
			return;
		}
		this.testing = true;
		this.result = null;
		try {
			const { createProvider } = await loadCode(() => import('../../providers/create-provider'));
			const provider = createProvider(config);
			const listed = (await provider.listModels?.(AbortSignal.timeout(15_000))) ?? [];
			const models = listed.filter((m, i) => m && listed.indexOf(m) === i);
			this.models = models;
			if (!this.model.trim() && models.length) this.model = models[0];
			this.result = {
				ok: true,
				text: models.length ? `Connected. Model offers the ${models.length === 1 ? 'one model' : `${models.length} models`} it lists: ${models.slice(0, 8).join(', ')}${models.length > 8 ? ', …' : ''}.` : 'Connected.'
			};
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			this.result = { ok: false, text: explainUnreachable(message, config, location.origin) ?? `Could not connect: ${message}` };
		} finally {
			this.testing = false;
		}
	}

	/**
	 * Saves the provider. A new one becomes the default model when it is the first provider, or
	 * when `asDefault` (it was added to connect a model from the empty chat). Returns the model
	 * saved and whether it is now the default, or null when nothing was saved.
	 */
	async save({ asDefault = false } = {}): Promise<SavedModel | null> {
		const config = this.config();
		if (typeof config === 'string') {
			this.result = { ok: false, text: config };
			return null;
		}
		const saved = this.#settings.get('providers');
		const editing = this.editing !== null && saved.some((p) => p.id === config.id);
		const providers = editing ? saved.map((p) => (p.id === config.id ? config : p)) : [...saved, config];
		// A default that named this provider follows its new model; a first provider, or one
		// added to connect a model, is what new sessions use from now on.
		const isDefault = editing ? this.#settings.get('default_provider') === config.id : asDefault || saved.length === 0;
		if (!(await this.#settings.update(isDefault ? { providers, default_provider: config.id, default_model: config.model } : { providers }))) {
			this.result = { ok: false, text: `Could not save: ${this.#settings.save.state === 'failed' ? this.#settings.save.error : 'unknown error'}` };
			return null;
		}
		this.apiKey = '';
		this.editing = null;
		this.result = { ok: true, text: `${editing ? 'Saved changes to' : 'Saved'} ${config.label} · ${config.model}.` };
		return { provider: config.id, model: config.model, isDefault };
	}
}

/**
 * The provider Settings is asked to add (from a chat whose provider is not set up here): a kind
 * of the form, an http(s) server, a model and the chat to go back to; null when the address asks
 * for none of it.
 */
export function readWanted(params: URLSearchParams): { preset: ProviderPreset; base_url: string; model: string; session: string | null } | null {
	const preset = params.get('preset') ?? 'custom';
	const base_url = params.get('base_url') ?? '';
	if (!base_url || !(PRESET_ORDER as string[]).includes(preset) || preset === 'wllama') return null;
	try {
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- validation only, not state
		if (!['http:', 'https:'].includes(new URL(base_url).protocol)) return null;
	} catch {
		return null;
	}
	return { preset: preset as ProviderPreset, base_url, model: params.get('model') ?? '', session: params.get('session') };
}
