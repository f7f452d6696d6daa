import { describe, expect, it } from 'vitest';
import { missingModelLabel, missingProviderError, providerNameOf } from './missing-provider';
import { providerServerOf, providerToAdd } from './missing-provider-server';

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

	it('names the server it was at, offers a provider like it (its kind, server and the model), and never says the id', () => {
		const session = { provider: ID, model: 'gpt-x', named_provider: { id: ID, name: 'Laptop', base_url: 'https://api.example.com/v1', preset: 'openai_chat' } };
		expect(providerServerOf(session)).toBe('https://api.example.com/v1');
		expect(providerToAdd(session)).toEqual({ preset: 'openai_chat', base_url: 'https://api.example.com/v1', model: 'gpt-x' });
		expect(missingProviderError(session)).toBe('gpt-x from Laptop is not set up in this browser: choose another model to go on.');
		expect(missingProviderError(session)).not.toContain(ID);
		// A kind this app does not know is offered as an OpenAI-compatible server.
		expect(providerToAdd({ ...session, named_provider: { ...session.named_provider, preset: 'toString' } })?.preset).toBe('custom');
	});

	it('offers no provider for a server that is not an http(s) address, nor for one that runs in the browser', () => {
		for (const base_url of ['', 'javascript:alert(1)', 'file:///etc/passwd', 'not a url']) {
			const session = { provider: ID, model: 'gpt-x', named_provider: { id: ID, name: 'Laptop', base_url, preset: 'custom' } };
			expect(providerServerOf(session)).toBeNull();
			expect(providerToAdd(session)).toBeNull();
		}
	});
});
