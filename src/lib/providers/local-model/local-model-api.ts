// What the page asks of the in-browser model's worker (both sides are this app's: comlink).

export interface LoadRequest {
	providerId: string;
	/** File names in the provider's Origin Private File System folder, in shard order. */
	files: string[];
	contextWindow: number;
	template: 'model' | 'fallback';
	/** Threads to generate with (more than one only where the page is cross-origin isolated). */
	threads: number;
}

export interface LoadedInfo {
	threads: number;
	multiThread: boolean;
	contextWindow: number;
	loadMs: number;
}

export interface LocalModelApi {
	/** Fetches llama.cpp's engine (kept by the service worker); a clear error when it cannot. */
	fetchEngine(): Promise<void>;
	load(request: LoadRequest): Promise<LoadedInfo>;
	/** Streams one chat completion; `onChunks` gets its OpenAI-shaped chunks as they come. */
	chat(id: number, body: Record<string, unknown>, onChunks: (chunks: unknown[]) => void | Promise<void>): Promise<void>;
	cancel(id: number): void;
}

/** The name an error from the worker carries when the model's context is full. */
export const CONTEXT_FULL = 'ContextFullError';
