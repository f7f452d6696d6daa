// The "Add provider" form: preset defaults, validation, and a connection test that lists the
// provider's models.
import { createProvider, PRESETS } from '../providers/create-provider';
import type { ProviderConfig, ProviderPreset } from '../providers/types';
import type { SettingsState } from './settings.svelte';

// The form's preset labels, for the component that lists them.
export { PRESETS };

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
	testing = $state(false);
	result = $state<{ ok: boolean; text: string } | null>(null);
	#settings: SettingsState;

	constructor(settings: SettingsState) {
		this.#settings = settings;
	}

	choosePreset(preset: ProviderPreset): void {
		this.preset = preset;
		this.baseUrl = PRESETS[preset].baseUrl;
		this.model = PRESETS[preset].defaultModel;
		this.result = null;
	}

	/** A config from the form, or an error message saying what to fix. */
	config(): ProviderConfig | string {
		const baseUrl = this.baseUrl.trim().replace(/\/+$/, '');
		try {
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- validation only, not state
			const url = new URL(baseUrl);
			if (!['http:', 'https:'].includes(url.protocol)) return 'The base URL must start with http:// or https://.';
		} catch {
			return 'Enter the provider\u2019s base URL, for example https://api.openai.com/v1.';
		}
		if (!this.model.trim()) return 'Enter the model to use.';
		if (PRESETS[this.preset].needsKey && !this.apiKey.trim()) return `${PRESETS[this.preset].label} needs an API key.`;
		return {
			id: crypto.randomUUID(),
			preset: this.preset,
			label: PRESETS[this.preset].label,
			base_url: baseUrl,
			api_key: this.apiKey.trim(),
			model: this.model.trim()
		};
	}

	async test(): Promise<void> {
		const config = this.config();
		if (typeof config === 'string') {
			this.result = { ok: false, text: config };
			return;
		}
		this.testing = true;
		this.result = null;
		try {
			const provider = createProvider(config);
			const models = (await provider.listModels?.(AbortSignal.timeout(15_000))) ?? [];
			this.result = { ok: true, text: models.length ? `Connected. Models: ${models.slice(0, 8).join(', ')}` : 'Connected.' };
		} catch (error) {
			this.result = { ok: false, text: `Could not connect: ${error instanceof Error ? error.message : String(error)}` };
		} finally {
			this.testing = false;
		}
	}

	async save(): Promise<boolean> {
		const config = this.config();
		if (typeof config === 'string') {
			this.result = { ok: false, text: config };
			return false;
		}
		if (!(await this.#settings.set('providers', [...this.#settings.get('providers'), config]))) {
			this.result = { ok: false, text: `Could not save: ${this.#settings.save.state === 'failed' ? this.#settings.save.error : 'unknown error'}` };
			return false;
		}
		this.apiKey = '';
		this.result = { ok: true, text: `Saved ${config.label} · ${config.model}.` };
		return true;
	}
}
