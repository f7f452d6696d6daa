import { describe, expect, it, vi } from 'vitest';
import { createProvider, PRESETS } from './create-provider';
import type { ProviderConfig, ProviderPreset } from './types';

const sse = (text: string) =>
	new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });

const config = (preset: ProviderPreset): ProviderConfig => ({
	id: preset,
	preset,
	label: PRESETS[preset].label,
	base_url: PRESETS[preset].baseUrl || 'http://127.0.0.1:9',
	api_key: 'k',
	model: 'm'
});

describe('createProvider', () => {
	it('returns the offline model for the offline preset', () => {
		expect(createProvider(config('offline'))).toMatchObject({ id: 'offline', offline: true });
	});

	it('sends OpenAI to the Responses API, Anthropic to the Messages API and every other preset to Chat Completions', async () => {
		// The in-browser model speaks to a worker in this tab, not to a URL.
		const presets = Object.keys(PRESETS).filter((preset) => preset !== 'offline' && preset !== 'wllama') as ProviderPreset[];
		for (const preset of presets) {
			const fetchImpl = vi.fn(async () => sse('data: [DONE]\n\n'));
			const provider = createProvider(config(preset), fetchImpl);
			expect(provider).toMatchObject({ id: preset, offline: false });
			// The fake stream is empty; only the URL the adapter chose matters here.
			await provider.stream({ model: 'm', messages: [] })[Symbol.asyncIterator]().next().catch(() => {});
			const url = String((fetchImpl.mock.calls[0] as unknown[])[0]);
			const expected = preset === 'anthropic' ? /\/v1\/messages$/ : preset === 'openai' ? /\/v1\/responses$/ : /\/chat\/completions$/;
			expect(url, preset).toMatch(expected);
		}
	});

	it('knows the default endpoints of the local servers', () => {
		expect(PRESETS.ollama.baseUrl).toBe('http://localhost:11434/v1');
		expect(PRESETS.lmstudio.baseUrl).toBe('http://localhost:1234/v1');
		expect(PRESETS.llamacpp.baseUrl).toBe('http://localhost:8080/v1');
		expect(PRESETS.vllm.baseUrl).toBe('http://localhost:8000/v1');
		expect(PRESETS.openrouter).toMatchObject({ baseUrl: 'https://openrouter.ai/api/v1', needsKey: true });
		expect(PRESETS.custom.baseUrl).toBe('');
	});
});
