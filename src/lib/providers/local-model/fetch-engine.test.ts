import { describe, expect, it } from 'vitest';
import { ENGINE_OFFLINE, fetchEngine } from './fetch-engine';

describe('fetching the in-browser model\u2019s engine before a model is added', () => {
	it('reads the engine to its end, so the service worker keeps all of it', async () => {
		let pulled = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (++pulled > 3) controller.close();
				else controller.enqueue(new Uint8Array(1000));
			}
		});
		const seen: string[] = [];
		await fetchEngine(undefined, async (url) => {
			seen.push(String(url));
			return new Response(body);
		});
		expect(seen).toEqual([expect.stringMatching(/wllama.*\.wasm$/)]);
		expect(pulled).toBe(4);
	});

	it('says the engine is missing and the network is off, or what the server answered', async () => {
		await expect(fetchEngine(undefined, async () => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow(ENGINE_OFFLINE);
		await expect(fetchEngine(undefined, async () => new Response('gone', { status: 404 }))).rejects.toThrow('could not be downloaded (HTTP 404)');
	});

	it('ends with an AbortError when Cancel is pressed', async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(fetchEngine(controller.signal, (_, init) => Promise.reject(init?.signal?.reason))).rejects.toMatchObject({ name: 'AbortError' });
	});
});
