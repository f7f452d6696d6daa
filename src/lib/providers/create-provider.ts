// Picks the adapter for a configured provider (each preset is described in presets.ts).

import { createAnthropicProvider } from './anthropic';
import type { AdapterOptions, FetchLike } from './fetch-with-retry';
import { openLocalEngine } from './local-model/local-engines';
import { createLocalModelProvider } from './local-model/local-model-provider';
import { createOfflineProvider } from './offline';
import { createOpenAICompatibleProvider } from './openai-compatible';
import { createOpenAIResponsesProvider } from './openai-responses';
import { withoutImages } from './openai-request';
import type { ChatRequest, Provider, ProviderConfig } from './types';

export { PRESETS, type PresetInfo } from './presets';

export function createProvider(
	config: ProviderConfig,
	fetchImpl?: FetchLike,
	options?: AdapterOptions
): Provider {
	const provider = adapterFor(config, fetchImpl, options);
	return config.text_only ? textOnly(provider) : provider;
}

function adapterFor(config: ProviderConfig, fetchImpl?: FetchLike, options?: AdapterOptions): Provider {
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

/** A provider whose models the user marked as reading text only: no request to it carries an image. */
function textOnly(provider: Provider): Provider {
	const strip = (request: ChatRequest): ChatRequest => ({ ...request, messages: withoutImages(request.messages) });
	const { compact } = provider;
	return {
		...provider,
		...(provider.wire ? { wire: { ...provider.wire, textOnly: true } } : {}),
		stream: (request) => provider.stream(strip(request)),
		...(compact ? { compact: (request: ChatRequest) => compact(strip(request)) } : {})
	};
}
