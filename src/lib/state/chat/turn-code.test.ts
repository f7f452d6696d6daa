import { describe, expect, it } from 'vitest';
import { CODE_UNAVAILABLE, loadCode } from './turn-code';

describe('loadCode', () => {
	it('gives back what the import gave', async () => {
		await expect(loadCode(async () => ({ answer: 42 }))).resolves.toEqual({ answer: 42 });
	});

	it('turns a failed import into one sentence that says to reload, keeping the cause', async () => {
		const cause = new TypeError('Failed to fetch dynamically imported module: /_app/immutable/chunks/x.js');
		const error = await loadCode(() => Promise.reject(cause)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(CODE_UNAVAILABLE);
		expect((error as Error).message).toContain('Reload the page');
		expect((error as Error).cause).toBe(cause);
	});
});
