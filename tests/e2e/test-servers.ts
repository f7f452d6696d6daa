// The local servers a spec's browser tests talk to: the mock provider, the plugin origins, the MCP servers and the sync server,
// each started once before the first test and stopped after the last (the sync server once per worker). Each function returns a
// handle that is filled in once its server has started: read it in tests and hooks, not while
// the spec loads.
import { startMockProvider, type MockProvider } from '../support/mock-provider.mjs';
import { startReferenceToolServer, startSignInToolServer } from '../support/tool-server.mjs';
import { startPluginOrigins, type PluginOrigins } from './plugin-helpers';
import { test } from './test-base';

/** The mock provider; unless `reset` is false, its queue and recorded requests are cleared before each test. */
export function useMockProvider({ reset = true } = {}): MockProvider {
	const mock = {} as MockProvider;
	test.beforeAll(async () => void Object.assign(mock, await startMockProvider()));
	test.afterAll(async () => {
		await mock.close?.();
	});
	if (reset) test.beforeEach(() => mock.reset());
	return mock;
}

/** The two plugin origins, with CORS and without (see startPluginOrigins). */
export function usePluginOrigins(): PluginOrigins {
	const origins = {} as PluginOrigins;
	test.beforeAll(async () => void Object.assign(origins, await startPluginOrigins()));
	test.afterAll(async () => {
		await origins.close?.();
	});
	return origins;
}

/** The MCP reference server, started once for the spec on a free port and stopped by its process id. */
export function useReferenceToolServer(): { url: string } {
	const server = {} as Awaited<ReturnType<typeof startReferenceToolServer>>;
	test.beforeAll(async () => void Object.assign(server, await startReferenceToolServer()));
	test.afterAll(async () => {
		await server.close?.();
	});
	return server;
}

/** The MCP server that asks for sign-in, and its two authorization servers, started once for the spec and stopped by process id. */
export function useSignInToolServer(): { url: string; authUrl: string; auth2Url: string } {
	const server = {} as Awaited<ReturnType<typeof startSignInToolServer>>;
	test.beforeAll(async () => void Object.assign(server, await startSignInToolServer(new URL(String(test.info().project.use.baseURL)).origin)));
	test.afterAll(async () => {
		await server.close?.();
	});
	return server;
}

/**
 * The CouchDB-compatible sync server (pouchdb-server in memory, any origin let in): one per
 * worker, shared by the specs it runs, stopped by process id when the worker ends. Tests keep
 * apart by each creating a database of its own.
 */
export function useCouchServer(): { url: string } {
	const server = {} as { url: string };
	test.beforeAll(async ({ couchServer }) => void Object.assign(server, couchServer));
	return server;
}
