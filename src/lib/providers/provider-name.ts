// What a provider is called where models are chosen: the name the user gave it, else its
// preset and host ("Custom (OpenAI-compatible) · 127.0.0.1:4010"), so two servers of one
// preset can be told apart.
import type { ProviderConfig } from './types';

/** The name a provider gets when the user gives none. */
export function defaultProviderName(presetLabel: string, baseUrl: string): string {
	let host = '';
	try {
		host = new URL(baseUrl).host;
	} catch {
		// No base URL (the in-browser model), or one still being typed.
	}
	return host ? `${presetLabel} · ${host}` : presetLabel;
}

export function providerName(config: Pick<ProviderConfig, 'name' | 'label' | 'base_url'>): string {
	return config.name?.trim() || defaultProviderName(config.label, config.base_url);
}

/** A model as the pickers list it: the model first, its provider after. */
export function modelLabel(model: string, provider: string): string {
	return `${model} · ${provider}`;
}
