// Main-thread handle on the transfer worker. Each export or import gets a fresh worker that
// ends with it, so the memory a large file needed is given back at once.
import { proxy, wrap, type Endpoint, type Remote } from 'comlink';
import type { ExportCall, TransferApi } from './transfer-api';
import type { ExportResult, ImportReport, TransferProgress } from './transfer-format';

export type OnProgress = (progress: TransferProgress) => void;

export interface TransferClient {
	exportSessions(call: ExportCall, onProgress?: OnProgress): Promise<ExportResult>;
	importFile(profile: string, file: Blob, onProgress?: OnProgress): Promise<ImportReport>;
}

function clientFor(open: () => { remote: Remote<TransferApi>; close: () => void }): TransferClient {
	async function run<T>(call: (remote: Remote<TransferApi>) => Promise<T>): Promise<T> {
		const { remote, close } = open();
		try {
			return await call(remote);
		} finally {
			close();
		}
	}
	const relay = (onProgress?: OnProgress) => proxy((progress: TransferProgress) => onProgress?.(progress));
	return {
		exportSessions: (call, onProgress) => run((remote) => remote.exportSessions(call, relay(onProgress))),
		importFile: (profile, file, onProgress) => run((remote) => remote.importFile(profile, file, relay(onProgress)))
	};
}

export function createTransferClient(): TransferClient {
	return clientFor(() => {
		const worker = new Worker(new URL('./transfer.worker.ts', import.meta.url), { type: 'module' });
		return { remote: wrap<TransferApi>(worker), close: () => worker.terminate() };
	});
}

/** A client over any comlink endpoint, e.g. one end of a MessageChannel in tests. */
export function createTransferClientFromPort(port: Endpoint): TransferClient {
	const remote = wrap<TransferApi>(port);
	return clientFor(() => ({ remote, close: () => {} }));
}
