import { describe, expect, it } from 'vitest';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from './context-window';

describe('contextWindowFor', () => {
	it('knows common models, and assumes the default for others', () => {
		expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
		expect(contextWindowFor('my-local-model')).toBe(DEFAULT_CONTEXT_WINDOW);
	});

	it("believes what the provider said over the table, and takes the smaller of the user's window and the provider's", () => {
		expect(contextWindowFor('my-local-model', {}, { 'my-local-model': 8192 })).toBe(8192);
		expect(contextWindowFor('gpt-4o', { 'gpt-4o': 32_000 }, { 'gpt-4o': 64_000 })).toBe(32_000);
		expect(contextWindowFor('gpt-4o', { 'gpt-4o': 100_000 }, { 'gpt-4o': 64_000 })).toBe(64_000);
	});
});
