// Main-thread handle on the tokenizer worker. The worker starts on the first call, so
// opening the app costs nothing tokenizer-related.

import { wrap, type Endpoint, type Remote } from 'comlink';
import type { EncodingName, EstimateInput, RequestEstimate } from './count-tokens';
import type { TokenizerApi } from './tokenizer-api';

export interface TokenClient {
	estimate(input: EstimateInput, model: string): Promise<RequestEstimate & { encoding: EncodingName }>;
	/** Stops the worker; the next call starts a fresh one. */
	dispose(): void;
}

function clientFor(getRemote: () => Remote<TokenizerApi>, dispose: () => void): TokenClient {
	return {
		estimate: (input, model) => getRemote().estimate(input, model),
		dispose
	};
}

export function createTokenClient(): TokenClient {
	let worker: Worker | null = null;
	let remote: Remote<TokenizerApi> | null = null;
	return clientFor(
		() => {
			if (!remote) {
				worker = new Worker(new URL('./tokenizer.worker.ts', import.meta.url), { type: 'module' });
				remote = wrap<TokenizerApi>(worker);
			}
			return remote;
		},
		() => {
			worker?.terminate();
			worker = null;
			remote = null;
		}
	);
}

/** A client over any comlink endpoint, e.g. one end of a MessageChannel in tests. */
export function createTokenClientFromPort(port: Endpoint): TokenClient {
	const remote = wrap<TokenizerApi>(port);
	return clientFor(
		() => remote,
		() => {
			if ('close' in port && typeof port.close === 'function') port.close();
		}
	);
}
