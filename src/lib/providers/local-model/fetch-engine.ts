// llama.cpp's WebAssembly engine is not part of the app's first download (see
// src/vite/precache-filter.ts). The model's worker fetches it before anything else, through the
// service worker (which keeps it for offline use from then on): adding a model does so before
// the model is copied, and every load does, so a browser that never had the engine and cannot
// reach the network gets a message saying so instead of a load that never ends. Imported by the
// worker only: the engine's URL is the one of the worker's bundle.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

export const ENGINE_OFFLINE =
	'the in-browser model\u2019s engine (llama.cpp, about 3 MB to download) is not in this browser yet, and the network cannot be reached. Connect once to add the model; from then on it works with the network off.';

/** Fetches the engine through the service worker (from its cache once kept) and reads it to the end. */
export async function fetchEngine(signal?: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<void> {
	let response: Response;
	try {
		response = await fetchImpl(wasmUrl, { signal });
	} catch (error) {
		if (signal?.aborted) throw error;
		throw new Error(ENGINE_OFFLINE, { cause: error });
	}
	if (!response.ok) throw new Error(`the in-browser model\u2019s engine could not be downloaded (HTTP ${response.status}).`);
	// Read to the end (and dropped): the service worker caches the whole response.
	await response.body?.pipeTo(new WritableStream(), { signal });
}
