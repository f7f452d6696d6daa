// The page's handle on the tool-server worker: started when the first tool server is used
// (never with the page), and adapters that carry a call's progress and a sign-in's refreshed
// tokens back over comlink.
import { proxy, wrap, type Remote } from 'comlink';
import type { ToolServerCalls } from './server-tools';
import type { SignInChange } from './stored-sign-in';
import type { ConnectRequest, ToolServerApi } from './tool-server-api';
import type { ServerStatus } from './types';

/** Where a signed-in server's connection reports its sign-in. */
export interface SignInFollower {
	/** The tokens stored for the server now. */
	stored(): unknown;
	/** Keeps tokens the worker refreshed. */
	refreshed(tokens: Record<string, unknown>): unknown;
	/** The sign-in could not be renewed: `error` says to sign in again. */
	ended(error: string): void;
}

export interface ToolServerWorker {
	api: Remote<ToolServerApi>;
	calls: ToolServerCalls;
	connect(request: ConnectRequest, follower?: SignInFollower): Promise<ServerStatus>;
	close(): void;
}

/**
 * A connection's sign-in changes, taken only while the stored tokens are ones it had or gave
 * (a refresh may come before the one before it is stored): after a sign-out, a new sign-in, or
 * a refresh in another tab, an older connection has no say.
 */
export function followSignIn(had: unknown, follower: SignInFollower): (change: SignInChange) => void {
	const own = new Set([JSON.stringify(had)]);
	return (change) => {
		if (!own.has(JSON.stringify(follower.stored()))) return;
		if (change.type === 'ended') return follower.ended(change.error);
		own.add(JSON.stringify(change.tokens));
		void follower.refreshed(change.tokens);
	};
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
		connect: (request, follower) => (follower ? api.connect(request, proxy(followSignIn(request.oauth?.tokens, follower))) : api.connect(request)),
		close: () => worker.terminate()
	};
}
