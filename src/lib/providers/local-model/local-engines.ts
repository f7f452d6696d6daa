// The page's handle on each in-browser model: one worker per configured model, started and
// loaded on first use, then reused by every answer and summary until the model is removed or
// its worker dies (the next use starts a new one).
import { proxy, wrap, type Remote } from 'comlink';
import type { ProviderConfig } from '../types';
import { CONTEXT_FULL, type LoadedInfo, type LocalModelApi } from './local-model-api';
import type { LocalEngine } from './local-model-provider';
import { raceAbort } from '../abort';

export interface LoadedEngine extends LocalEngine {
	info: LoadedInfo;
}

interface Running {
	worker: Worker;
	ready: Promise<LoadedEngine>;
	/** Ends every stream still waiting on this worker. */
	fail(reason: Error): void;
}

const engines = new Map<string, Running>();

/**
 * Threads to generate with: one, unless the page is cross-origin isolated (threads share
 * memory, which needs SharedArrayBuffer); then half the cores, as llama.cpp suggests, which
 * leaves the rest to the page and the system.
 */
export function defaultThreads(scope: { crossOriginIsolated?: boolean; navigator?: { hardwareConcurrency?: number } } = globalThis): number {
	return scope.crossOriginIsolated ? Math.max(1, Math.floor((scope.navigator?.hardwareConcurrency || 2) / 2)) : 1;
}

/** An async iterable fed by pushes: what a stream of callbacks from the worker becomes. */
function chunkQueue() {
	const items: unknown[] = [];
	let ended = false;
	let failure: unknown = null;
	let wake: (() => void) | null = null;
	const poke = () => {
		wake?.();
		wake = null;
	};
	return {
		push(chunks: unknown[]) {
			items.push(...chunks);
			poke();
		},
		end(error?: unknown) {
			ended = true;
			failure = error ?? null;
			poke();
		},
		async *[Symbol.asyncIterator]() {
			while (true) {
				if (items.length) yield items.shift();
				else if (failure) throw failure;
				else if (ended) return;
				else await new Promise<void>((resolve) => (wake = resolve));
			}
		}
	};
}

function spawn(): { worker: Worker; remote: Remote<LocalModelApi> } {
	const worker = new Worker(new URL('./local-model.worker.ts', import.meta.url), { type: 'module', name: 'in-browser model' });
	return { worker, remote: wrap(worker) };
}

/** Gets llama.cpp's engine into this browser (before a model is copied), in a worker of its own. */
export async function fetchLocalEngine(signal?: AbortSignal): Promise<void> {
	const { worker, remote } = spawn();
	try {
		await raceAbort(remote.fetchEngine(), signal);
	} finally {
		worker.terminate();
	}
}

function start(config: ProviderConfig, threads?: number): Running {
	const local = config.local;
	const { worker, remote } = spawn();
	const streams = new Set<ReturnType<typeof chunkQueue>>();
	let nextId = 1;
	const running: Running = {
		worker,
		fail(reason) {
			for (const stream of streams) stream.end(reason);
			streams.clear();
		},
		ready: (async () => {
			if (!local) throw new Error('This provider has no model file. Remove it and add the model again.');
			// Plain copies: the settings may hand over reactive proxies, which cannot be posted.
			const info = await remote.load({ providerId: config.id, files: [...local.files], contextWindow: local.context_window, template: local.template, threads: threads ?? defaultThreads() });
			return {
				info,
				async chat(body, signal) {
					const id = nextId++;
					const queue = chunkQueue();
					streams.add(queue);
					signal?.addEventListener('abort', () => void remote.cancel(id).catch(() => {}), { once: true });
					remote.chat(id, body, proxy((chunks: unknown[]) => queue.push(chunks))).then(
						() => queue.end(),
						(error: unknown) => queue.end(error instanceof Error && error.name === CONTEXT_FULL ? Object.assign(error, { type: 'kv_cache_full' }) : error)
					).finally(() => streams.delete(queue));
					return queue;
				}
			};
		})()
	};
	worker.addEventListener('error', (event) => {
		event.preventDefault();
		unloadLocalEngine(config.id, new Error(`the model's worker stopped: ${event.message || 'it crashed'}`));
	});
	return running;
}

/** The loaded model of `config`, loading it first if needed. A load that fails is forgotten, so the next use tries again. */
export function openLocalEngine(config: ProviderConfig, options: { threads?: number } = {}): Promise<LoadedEngine> {
	let running = engines.get(config.id);
	if (!running) {
		running = start(config, options.threads);
		engines.set(config.id, running);
		const started = running;
		started.ready.catch(() => unloadLocalEngine(config.id, null, started));
	}
	return running.ready;
}

/** Stops the model's worker and frees its memory (Remove, or a crash). */
export function unloadLocalEngine(providerId: string, reason: Error | null = null, only?: Running): void {
	const running = engines.get(providerId);
	if (!running || (only && running !== only)) return;
	engines.delete(providerId);
	running.fail(reason ?? new Error('The model was unloaded.'));
	running.worker.terminate();
}
