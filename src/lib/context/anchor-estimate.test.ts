import { describe, expect, it } from 'vitest';
import { anchoredTotal, anchorParts } from './anchor-estimate';
import { composeEstimate, type RequestTotals } from './count-tokens';

const sum = (parts: RequestTotals) =>
	parts.systemPrompt + parts.systemOverhead + parts.toolSchemas + parts.messages + parts.overhead + parts.injected + parts.reservedOutput;

/** A deterministic stream of numbers in [0, 1), so every run checks the same cases. */
function numbers(seed: number): () => number {
	let state = seed;
	return () => {
		state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
		return state / 2 ** 32;
	};
}

describe('the estimate on the provider’s scale', () => {
	it('keeps the parts as they are without a ratio, or with a ratio of 1', () => {
		const parts = composeEstimate({ messages: 14_907, messageCount: 8, systemPrompt: 13, hasSystemPrompt: true, toolSchemas: 0, injected: 0, reservedOutput: 3_200 });
		expect(anchorParts(parts, undefined)).toEqual(parts);
		expect(anchorParts(parts, 1)).toEqual(parts);
	});

	it('scales every part but the room kept for the answer, and the parts add up to the anchored total', () => {
		// A session whose provider counts slightly fewer tokens than this app does.
		const parts = composeEstimate({ messages: 14_875, messageCount: 8, systemPrompt: 13, hasSystemPrompt: true, toolSchemas: 0, injected: 0, reservedOutput: 3_200 });
		const anchored = anchorParts(parts, 0.996);
		expect(anchored.total).toBe(anchoredTotal(parts, 0.996));
		expect(sum(anchored)).toBe(anchored.total);
		expect(anchored.reservedOutput).toBe(3_200);
		expect(anchored.messages).toBeLessThan(parts.messages);
	});

	it('adds up exactly for any parts and any ratio the app accepts', () => {
		const next = numbers(42);
		for (let round = 0; round < 2_000; round++) {
			const size = (max: number) => Math.floor(next() * max);
			const parts = composeEstimate({
				messages: size(200_000),
				messageCount: size(500),
				systemPrompt: size(3_000),
				hasSystemPrompt: next() < 0.9,
				toolSchemas: next() < 0.5 ? 0 : size(8_000),
				injected: next() < 0.5 ? 0 : size(4_000),
				reservedOutput: size(32_000)
			});
			const ratio = Math.round((0.5 + next() * 1.5) * 1000) / 1000;
			const anchored = anchorParts(parts, ratio);
			expect(sum(anchored), `ratio ${ratio}`).toBe(anchored.total);
			expect(anchored.total).toBe(anchoredTotal(parts, ratio));
			for (const key of ['systemPrompt', 'messages', 'injected'] as const) expect(Math.abs(anchored[key] - parts[key] * ratio)).toBeLessThan(1);
		}
	});
});
