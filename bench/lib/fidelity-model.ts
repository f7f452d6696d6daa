// Summaries written by a real model, as the app asks for them: the app's own summary request
// (summaryRequest, through writeSummary) sent to an OpenAI-compatible Chat Completions endpoint
// with the app's adapter, and an answer over the budget cut in the context worker as the app
// cuts it.
import type { ContextCounter } from '../../src/lib/agent/compaction-types';
import { writeSummary } from '../../src/lib/agent/write-summary';
import { contextWindowFor } from '../../src/lib/context/context-window';
import { createProvider } from '../../src/lib/providers/create-provider';
import type { Summarise } from './fidelity';

export interface ModelEndpoint {
	/** The base URL, as Settings takes it ("https://api.example.com/v1"). */
	baseUrl: string;
	model: string;
	apiKey: string;
	/** Retries after a failed attempt (the app's default when not given). */
	retries?: number;
}

/** A summariser that asks `endpoint` for each conversation's summary within its budget. */
export function modelSummary(endpoint: ModelEndpoint, worker: ContextCounter): Summarise {
	const provider = createProvider(
		{ id: 'bench-model', preset: 'custom', label: 'Benchmarked model', base_url: endpoint.baseUrl, api_key: endpoint.apiKey, model: endpoint.model },
		undefined,
		endpoint.retries === undefined ? undefined : { retry: { retries: endpoint.retries } }
	);
	const writer = { provider, model: endpoint.model, windowTokens: contextWindowFor(endpoint.model) };
	return async (conversation, budget) => {
		try {
			return await writeSummary(writer, conversation.rows, null, { budget, cut: (text) => worker.cutSummary(text, budget, endpoint.model) });
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			throw new Error(`The model "${endpoint.model}" at ${endpoint.baseUrl} did not write a summary of the conversation "${conversation.id}": ${reason}`, { cause: error });
		}
	};
}
