// The in-browser model's worker: loads the GGUF files from the Origin Private File System into
// wllama (llama.cpp in WebAssembly, which runs in a worker of its own started from here) and
// streams chat completions back. The page's main thread only receives the chunks.
import { expose } from 'comlink';
import { Wllama } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { templateFor } from './chat-template';
import { CONTEXT_FULL, type LoadedInfo, type LoadRequest, type LocalModelApi } from './local-model-api';
import { fetchEngine } from './fetch-engine';
import { openModelFiles } from './model-files';
import { installWorkerPolicy } from './worker-policy';

installWorkerPolicy();

// Stop aborts a completion: wllama then rejects promises of its own that nothing awaits. That
// is the expected end of an answer, not an error to report.
self.addEventListener('unhandledrejection', (event) => {
	if (event.reason instanceof Error && event.reason.name === 'AbortError') event.preventDefault();
});

const quiet = { debug: () => {}, log: () => {}, warn: console.warn, error: console.error };
let model: Wllama | null = null;
const running = new Map<number, AbortController>();

/** A wllama instance with the model loaded on `threads` threads; nothing is left running if it fails. */
async function loadWith(files: File[], request: LoadRequest, threads: number): Promise<Wllama> {
	const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, logger: quiet });
	// Never the package's compatibility build from a CDN: the engine comes from this site only.
	wllama.setCompat(null);
	const { chatTemplate } = templateFor(request.template);
	try {
		await wllama.loadModel(files, {
			n_ctx: request.contextWindow,
			n_threads: threads,
			// CPU only: the WebGPU backend is not enabled here (see the README).
			n_gpu_layers: 0,
			jinja: true,
			...(chatTemplate ? { chat_template: chatTemplate } : {})
		});
		return wllama;
	} catch (error) {
		await wllama.exit().catch(() => {});
		throw error;
	}
}

const api: LocalModelApi = {
	fetchEngine: () => fetchEngine(),

	async load(request: LoadRequest): Promise<LoadedInfo> {
		if (model) throw new Error('This worker has a model loaded already.');
		const started = performance.now();
		// wllama waits forever on an engine it cannot fetch; this fails with a reason instead.
		await fetchEngine();
		const files = await openModelFiles(request.providerId, request.files);
		let wllama: Wllama;
		try {
			wllama = await loadWith(files, request, request.threads);
		} catch (error) {
			if (request.threads <= 1) throw error;
			// Threads are started from blob: URLs inside the engine's own worker; a page whose
			// Content-Security-Policy header requires Trusted Types refuses them there. One thread
			// always works.
			console.warn('The in-browser model could not start its threads; it runs on one.', error);
			wllama = await loadWith(files, request, 1);
		}
		model = wllama;
		return { threads: wllama.getNumThreads(), multiThread: wllama.isMultithread(), contextWindow: request.contextWindow, loadMs: performance.now() - started };
	},

	async chat(id, body, onChunks) {
		if (!model) throw new Error('No model is loaded.');
		const controller = new AbortController();
		running.set(id, controller);
		try {
			const stream = await model.createChatCompletion({ ...(body as object), messages: body.messages as never, stream: true, abortSignal: controller.signal });
			// Awaited: the callback travels on a port of its own, so the call's end could otherwise
			// reach the page before its last chunks (the one with the usage and speed).
			for await (const chunk of stream) await onChunks([chunk]);
		} catch (error) {
			// Comlink carries an error's name and message, not wllama's `type`.
			if ((error as { type?: string }).type === 'kv_cache_full') (error as Error).name = CONTEXT_FULL;
			throw error;
		} finally {
			running.delete(id);
		}
	},

	cancel(id) {
		running.get(id)?.abort();
	}
};

expose(api);
