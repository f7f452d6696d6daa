// The page's handle on the plugin broker: a worker started with the first plugin, for the
// profile's database, and ended with the page's plugins (a profile switch, the page closing).
import { wrap, type Endpoint, type Remote } from 'comlink';
import type { BrokerApi } from './broker-protocol';

export interface BrokerHandle {
	broker: Remote<BrokerApi>;
	close(): void;
}

export async function startBroker(dbName: string): Promise<BrokerHandle> {
	const worker = new Worker(new URL('./broker.worker.ts', import.meta.url), { type: 'module', name: 'plugin broker' });
	return connectBroker(worker, dbName, () => worker.terminate());
}

/** A handle on a broker behind any comlink endpoint (a worker, or one end of a MessageChannel in tests). */
export async function connectBroker(endpoint: Endpoint, dbName: string, close: () => void): Promise<BrokerHandle> {
	const broker = wrap<BrokerApi>(endpoint);
	try {
		await broker.open(dbName);
	} catch (error) {
		close();
		throw new Error(`The plugin broker could not open this profile's database: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
	}
	return { broker, close };
}
