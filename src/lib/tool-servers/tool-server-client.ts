// The page's handle on the tool-server worker: started when the first tool server is used
// (never with the page), and a call adapter that carries a call's progress back over comlink.
import { proxy, wrap, type Remote } from 'comlink';
import type { ToolServerCalls } from './server-tools';
import type { ToolServerApi } from './tool-server-api';

export interface ToolServerWorker {
	api: Remote<ToolServerApi>;
	calls: ToolServerCalls;
	close(): void;
}

export function startToolServerWorker(): ToolServerWorker {
	const worker = new Worker(new URL('./tool-server.worker.ts', import.meta.url), { type: 'module', name: 'tool servers' });
	const api = wrap<ToolServerApi>(worker);
	return {
		api,
		calls: {
			call: (request, onProgress) => api.call(request, proxy(onProgress)),
			cancel: (callId) => api.cancel(callId)
		},
		close: () => worker.terminate()
	};
}
