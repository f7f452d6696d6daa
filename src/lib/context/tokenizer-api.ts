// The tokenizer worker's API. The encoding tables (1-2 MB each) are imported on first use,
// so they load inside the worker and only when something is actually counted.

import {
	countTokens,
	encodingForModel,
	estimateRequestTokens,
	type EncodingName,
	type EstimateInput,
	type RequestEstimate,
	type TokenEncoder
} from './count-tokens';

const loaders: Record<EncodingName, () => Promise<TokenEncoder>> = {
	o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
	cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base')
};

const encoders = new Map<EncodingName, Promise<TokenEncoder>>();

function loadEncoder(encoding: EncodingName): Promise<TokenEncoder> {
	let pending = encoders.get(encoding);
	if (!pending) {
		pending = loaders[encoding]();
		// A failed chunk load (e.g. offline before it was cached) may succeed later.
		pending.catch(() => encoders.delete(encoding));
		encoders.set(encoding, pending);
	}
	return pending;
}

export const tokenizerApi = {
	/** The whole request estimate in one round trip; cached message counts are reused. */
	async estimate(input: EstimateInput, model: string): Promise<RequestEstimate & { encoding: EncodingName }> {
		const encoding = encodingForModel(model);
		const encoder = await loadEncoder(encoding);
		const estimate = estimateRequestTokens({ ...input, encoding }, (text) => countTokens(text, encoder));
		return { ...estimate, encoding };
	}
};

export type TokenizerApi = typeof tokenizerApi;
