// What the tool-server API's tests share: an API and test servers closed after each test, and
// a server's status read as the state a test expects.
import { afterEach } from 'vitest';
import { createToolServerApi, type ToolServerApi, type ToolServerLimits } from './tool-server-api';
import type { TestServer } from './test-mcp-servers';
import type { ServerStatus } from './types';

/** Registers the clean-up after each test; returns how to make what it cleans up. */
export function useApiHarness() {
	const cleanups: Array<() => Promise<unknown>> = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	});
	return {
		/** Stopped after the test (after the API's connections, which are closed first). */
		track<T extends TestServer>(server: T): T {
			cleanups.push(() => server.close());
			return server;
		},
		/** An API whose connections (the tests use ids 's' and 't') are closed after the test. */
		newApi(limits: ToolServerLimits = {}): ToolServerApi {
			const api = createToolServerApi(undefined, limits);
			cleanups.push(() => Promise.all(['s', 't'].map((id) => api.disconnect(id))));
			return api;
		}
	};
}

export function connected(status: ServerStatus) {
	if (status.state !== 'connected') throw new Error(`expected a connection, got ${JSON.stringify(status)}`);
	return status;
}

export function failed(status: ServerStatus) {
	if (status.state !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(status)}`);
	return status;
}
