import { describe, expect, it } from 'vitest';
import { missingModelLabel, missingProviderError, providerNameOf } from './missing-provider';

const ID = 'b4a0c1e2-5f7d-4c39-9a51-0d2e8f6a7b13';

describe('a session whose provider is not set up here', () => {
	it('is named by what the user called its provider, never by the id', () => {
		const session = { provider: ID, model: 'mock-model', named_provider: { id: ID, name: 'Work server' } };
		expect(providerNameOf(session)).toBe('Work server');
		expect(missingProviderError(session)).toBe('mock-model from Work server is not set up in this browser: choose another model to go on.');
		expect(missingModelLabel(session)).toBe('mock-model · Work server (not set up here)');
	});

	it('says so without a name, and without the id, when the name is unknown or belongs to an earlier provider', () => {
		for (const session of [
			{ provider: ID, model: 'mock-model' },
			{ provider: ID, model: 'mock-model', named_provider: { id: 'an-earlier-provider', name: 'Earlier' } },
			{ provider: ID, model: 'mock-model', named_provider: { id: ID, name: '   ' } }
		]) {
			expect(providerNameOf(session)).toBeNull();
			expect(missingProviderError(session)).toBe('The provider of mock-model is not set up in this browser: choose another model to go on.');
			expect(missingModelLabel(session)).toBe('mock-model (provider not set up here)');
			expect(missingProviderError(session) + missingModelLabel(session)).not.toContain(ID);
		}
	});
});
