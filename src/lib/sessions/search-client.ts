// Main-thread handle on the search worker, started on first use and kept for the visit.
import { wrap, type Endpoint, type Remote } from 'comlink';
import type { SearchApi } from './search-api';

export type SearchClient = Remote<SearchApi>;

export function createSearchClient(): { client: SearchClient; dispose: () => void } {
	const worker = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' });
	return { client: wrap<SearchApi>(worker), dispose: () => worker.terminate() };
}

/** A client over any comlink endpoint, e.g. one end of a MessageChannel in tests. */
export function createSearchClientFromPort(port: Endpoint): SearchClient {
	return wrap<SearchApi>(port);
}
