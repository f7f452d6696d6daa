import { describe, expect, it } from 'vitest';
import { defaultProviderName, modelLabel, providerName } from './provider-name';

describe('provider names', () => {
	it('names a provider by its preset and host when the user gave no name', () => {
		expect(defaultProviderName('OpenAI (Chat Completions)', 'http://127.0.0.1:4010/v1')).toBe('OpenAI (Chat Completions) · 127.0.0.1:4010');
		expect(providerName({ label: 'Ollama', base_url: 'http://localhost:11434/v1', name: '  ' })).toBe('Ollama · localhost:11434');
	});

	it('uses the name the user gave, and the preset alone where there is no address', () => {
		expect(providerName({ label: 'OpenAI', base_url: 'https://api.openai.com/v1', name: ' Work ' })).toBe('Work');
		expect(providerName({ label: 'In-browser model (llama.cpp)', base_url: '' })).toBe('In-browser model (llama.cpp)');
	});

	it('puts the model first', () => {
		expect(modelLabel('gpt-4.1-mini', 'Work')).toBe('gpt-4.1-mini · Work');
	});
});
