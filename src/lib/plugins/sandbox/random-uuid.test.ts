import { describe, expect, it } from 'vitest';
import { provideRandomUuid, randomUuid } from './random-uuid';

describe('randomUuid', () => {
	it('makes version 4, variant 1 UUIDs that differ', () => {
		const ids = new Set(Array.from({ length: 200 }, () => randomUuid(crypto)));
		expect(ids.size).toBe(200);
		for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	});

	it('fills in crypto.randomUUID only where it is missing', () => {
		const bare = { getRandomValues: <T extends ArrayBufferView>(array: T) => crypto.getRandomValues(array as never) as T } as unknown as Crypto;
		provideRandomUuid(bare);
		expect(bare.randomUUID()).toMatch(/^[0-9a-f-]{36}$/);
		const own = () => '00000000-0000-4000-8000-000000000000' as const;
		const full = { getRandomValues: bare.getRandomValues, randomUUID: own } as unknown as Crypto;
		provideRandomUuid(full);
		expect(full.randomUUID).toBe(own);
	});
});
