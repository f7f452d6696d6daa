import { describe, expect, it } from 'vitest';
import { detectServer, explainUnreachable, LOCAL_SERVERS } from './local-servers';

const ollama = LOCAL_SERVERS[0];

describe('finding a model server on this computer', () => {
	it('knows where Ollama and LM Studio listen by default', () => {
		expect(LOCAL_SERVERS.map((s) => s.baseUrl)).toEqual(['http://localhost:11434/v1', 'http://localhost:1234/v1']);
	});

	it('reads the models of a server that answers', async () => {
		const fetchImpl = (async () => Response.json({ data: [{ id: 'llama3.1:8b' }, { id: 42 }, { nope: true }, { id: 'qwen3' }] })) as typeof fetch;
		expect(await detectServer(ollama, fetchImpl)).toEqual({ server: ollama, state: 'ready', models: ['llama3.1:8b', 'qwen3'] });
	});

	it('tells a server that blocks this page (its opaque answer arrives) from one that is not running', async () => {
		const blocking = (async (_url: string, init?: RequestInit) => {
			if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
			throw new TypeError('Failed to fetch');
		}) as typeof fetch;
		expect((await detectServer(ollama, blocking)).state).toBe('blocked');
		const down = (async () => {
			throw new TypeError('Failed to fetch');
		}) as typeof fetch;
		expect((await detectServer(ollama, down)).state).toBe('absent');
	});
});

describe('a provider the browser cannot reach', () => {
	const origin = 'http://127.0.0.1:4173';

	it('names the server and the one setting that allows this origin', () => {
		const text = explainUnreachable('Failed to fetch', { label: 'Ollama', base_url: 'http://localhost:11434/v1', preset: 'ollama' }, origin);
		expect(text).toContain('could not reach Ollama at http://localhost:11434/v1');
		expect(text).toContain('Check that the server is running');
		expect(text).toContain(`OLLAMA_ORIGINS=${origin}`);
		// The name the user gave it, when there is one.
		expect(explainUnreachable('Failed to fetch', { label: 'Ollama', name: 'Desk', base_url: 'http://localhost:11434/v1', preset: 'ollama' }, origin)).toContain('could not reach Desk at');
		expect(explainUnreachable('NetworkError when attempting to fetch resource.', { label: 'LM Studio', base_url: 'http://localhost:1234/v1', preset: 'lmstudio' }, origin)).toContain('Enable CORS');
	});

	it('says first that the network or the server may be down, then what lets this page in', () => {
		const text = explainUnreachable('Failed to fetch', { label: 'LM Studio', base_url: 'http://localhost:1234/v1', preset: 'lmstudio' }, origin) ?? '';
		const down = text.indexOf('the network or the server may be down');
		expect(down).toBeGreaterThan(0);
		expect(text.indexOf('Check that the server is running')).toBeGreaterThan(down);
		expect(text.indexOf('Enable CORS')).toBeGreaterThan(text.indexOf('Check that the server is running'));
		expect(explainUnreachable('Failed to fetch', undefined, origin)).toMatch(/^The browser could not reach the provider: the network or the server may be down\..*Access-Control-Allow-Origin/);
	});

	it('says nothing about other errors', () => {
		expect(explainUnreachable('401 Unauthorized: invalid key', undefined, origin)).toBeNull();
	});
});
