// Picks the adapter for a configured provider (each preset is described in presets.ts).

import { createAnthropicProvider } from './anthropic';
import type { AdapterOptions, FetchLike } from './fetch-with-retry';
import { openLocalEngine } from './local-model/local-engines';
import { createLocalModelProvider } from './local-model/local-model-provider';
import { createOfflineProvider } from './offline';
import { createOpenAICompatibleProvider } from './openai-compatible';
import { createOpenAIResponsesProvider } from './openai-responses';
import type { Provider, ProviderConfig } from './types';

export { PRESETS, type PresetInfo } from './presets';

export function createProvider(
	config: ProviderConfig,
	fetchImpl?: FetchLike,
	options?: AdapterOptions
): Provider {
	switch (config.preset) {
		case 'offline':
			return createOfflineProvider();
		case 'anthropic':
			return createAnthropicProvider(config, fetchImpl, options);
		case 'openai':
			return createOpenAIResponsesProvider(config, fetchImpl, options);
		case 'wllama':
			return createLocalModelProvider(config, openLocalEngine);
		default:
			return createOpenAICompatibleProvider(config, fetchImpl, options);
	}
}
