// The local mock provider for the unit tests of one file: started before the first test, its
// queue and recorded requests cleared before each, stopped after the last; and providers of
// each wire format pointed at it.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createProvider } from '../../src/lib/providers/create-provider';
import type { Provider, ProviderPreset } from '../../src/lib/providers/types';
import { startMockProvider, type MockProvider } from './mock-provider.mjs';

/**
 * The server's handle, filled in once it has started: read it in tests and hooks, not while the
 * file loads. A test may still start and stop a server of its own beside it.
 */
export function useMockProvider(): MockProvider {
	const mock = {} as MockProvider;
	beforeAll(async () => void Object.assign(mock, await startMockProvider()));
	afterAll(() => mock.close());
	beforeEach(() => mock.reset());
	return mock;
}

/** A provider of `preset` asking the mock for `model`, retrying without waiting. */
export function providerOnMock(mock: MockProvider, preset: ProviderPreset, model: string): Provider {
	return createProvider(
		{ id: preset, preset, label: preset, base_url: preset === 'anthropic' ? mock.url : `${mock.url}/v1`, api_key: 'k', model },
		undefined,
		{ retry: { sleep: async () => {} } }
	);
}
