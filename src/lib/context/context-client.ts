// Main-thread handle on the context worker. One object owns the worker: it starts it on the
// first call (opening the app costs nothing tokenizer-related), notices a crash (error event)
// or a call that never answers (timeout), and replaces it on the next call. Meanwhile its
// status is 'unavailable', which the context meter shows.

import { wrap, type Endpoint, type Remote } from 'comlink';
import type { CheckedSummary, ContextApi, FactCheckInput, PrepareInput, PreparedCompaction } from './context-api';
import { encodingForModel, type EncodingName, type EstimateInput, type RequestEstimate } from './count-tokens';
import { CountMemo } from './count-memo';

export type ContextWorkerStatus = 'idle' | 'ready' | 'unavailable';

/** A started worker as the client needs it: an endpoint, a way to stop it, its crash signal. */
export interface WorkerHandle {
	endpoint: Endpoint;
	terminate(): void;
	/** Calls `listener` when the worker dies or fails to start. */
	onCrash(listener: (reason: string) => void): void;
}

export interface ContextWorkerOptions {
	start?: () => WorkerHandle;
	/** How long one call may take before the worker is presumed stuck (ms). */
	timeoutMs?: number;
	onStatus?: (status: ContextWorkerStatus) => void;
}

export class ContextWorkerError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ContextWorkerError';
	}
}

const DEFAULT_TIMEOUT_MS = 30_000;

interface Running {
	handle: WorkerHandle;
	remote: Remote<ContextApi>;
	/** Rejects when the worker crashes or is stopped, so pending calls never hang. */
	dead: Promise<never>;
	kill: (reason: string) => void;
}

function startBrowserWorker(): WorkerHandle {
	const worker = new Worker(new URL('./context.worker.ts', import.meta.url), { type: 'module' });
	return {
		endpoint: worker,
		terminate: () => worker.terminate(),
		onCrash: (listener) => {
			worker.addEventListener('error', (event) => listener(event.message || 'the worker stopped'));
			worker.addEventListener('messageerror', () => listener('a message could not be read'));
		}
	};
}

export class ContextWorker {
	status: ContextWorkerStatus = 'idle';
	#running: Running | null = null;
	readonly #start: () => WorkerHandle;
	readonly #timeoutMs: number;
	readonly #onStatus: (status: ContextWorkerStatus) => void;
	/** Counts made recently, so the same text (a system prompt, a counted draft) crosses once. */
	readonly #memo = new CountMemo();

	constructor(options: ContextWorkerOptions = {}) {
		this.#start = options.start ?? startBrowserWorker;
		this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		this.#onStatus = options.onStatus ?? (() => {});
	}

	estimate(input: EstimateInput, model: string): Promise<RequestEstimate & { encoding: EncodingName }> {
		return this.#call((remote) => remote.estimate(input, model));
	}

	/** Exact counts; texts counted recently are answered here, without a call to the worker. */
	async countTexts(texts: string[], model: string): Promise<{ encoding: EncodingName; counts: number[] }> {
		const encoding = encodingForModel(model);
		const counts = texts.map((text) => this.#memo.get(encoding, text));
		const missing = [...new Set(texts.filter((_, index) => counts[index] === undefined))];
		if (!missing.length) return { encoding, counts: counts as number[] };
		const counted = await this.#call((remote) => remote.countTexts(missing, model));
		const found = new Map(missing.map((text, index) => [text, counted.counts[index]]));
		for (const [text, count] of found) this.#memo.set(counted.encoding, text, count);
		return { encoding: counted.encoding, counts: texts.map((text, index) => counts[index] ?? (found.get(text) as number)) };
	}

	cutSummary(text: string, budget: number, model: string): Promise<string> {
		return this.#call((remote) => remote.cutSummary(text, budget, model));
	}

	/** A summary's fact check; it reads as much text as planning does, so its timeout grows the same way. */
	checkSummary(input: FactCheckInput): Promise<CheckedSummary> {
		const chars = input.rows.reduce((sum, row) => sum + row.content.length, 0);
		return this.#call((remote) => remote.checkSummary(input), this.#timeoutMs + chars / 1000);
	}

	/** Planning a large session takes longer than counting: the timeout grows with its size. */
	prepareCompaction(input: PrepareInput): Promise<PreparedCompaction> {
		const chars = input.rows.reduce((sum, row) => sum + row.content.length, 0);
		return this.#call((remote) => remote.prepareCompaction(input), this.#timeoutMs + chars / 1000);
	}

	/** Stops the worker; the next call starts a fresh one. */
	dispose(): void {
		this.#running?.kill('stopped');
	}

	async #call<T>(work: (remote: Remote<ContextApi>) => Promise<T>, timeoutMs = this.#timeoutMs): Promise<T> {
		const running = this.#ensure();
		let timer: ReturnType<typeof setTimeout> | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => {
				reject(new ContextWorkerError('The token counter did not answer in time; it is being restarted.'));
				running.kill('it did not answer in time');
			}, timeoutMs);
		});
		try {
			const value = await Promise.race([work(running.remote), running.dead, timeout]);
			this.#setStatus('ready');
			return value;
		} finally {
			clearTimeout(timer);
		}
	}

	#ensure(): Running {
		if (this.#running) return this.#running;
		let kill!: (reason: string) => void;
		const dead = new Promise<never>((_, reject) => {
			kill = (reason) => reject(new ContextWorkerError(`The token counter stopped (${reason}).`));
		});
		dead.catch(() => {});
		let handle: WorkerHandle;
		try {
			handle = this.#start();
		} catch (error) {
			this.#setStatus('unavailable');
			throw new ContextWorkerError(`The token counter could not start: ${error instanceof Error ? error.message : String(error)}`);
		}
		const running: Running = {
			handle,
			remote: wrap<ContextApi>(handle.endpoint),
			dead,
			kill: (reason) => {
				if (this.#running !== running) return;
				this.#running = null;
				handle.terminate();
				kill(reason);
				this.#setStatus(reason === 'stopped' ? 'idle' : 'unavailable');
			}
		};
		handle.onCrash((reason) => running.kill(reason));
		this.#running = running;
		return running;
	}

	#setStatus(status: ContextWorkerStatus): void {
		if (this.status === status) return;
		this.status = status;
		this.#onStatus(status);
	}
}
