import { describe, expect, it } from 'vitest';
import { anthropicImageTokens, imageTokens, openAiImageTokens } from './image-tokens';

describe('OpenAI image tokens (512-pixel tiles)', () => {
	it("gives OpenAI's published examples", () => {
		// 1024 × 1024 is brought to 768 × 768: four tiles.
		expect(imageTokens('chat-completions', 1024, 1024)).toBe(765);
		// 2048 × 4096 fits 2048 × 2048 as 1024 × 2048, then 768 × 1536: six tiles.
		expect(imageTokens('responses', 2048, 4096)).toBe(1105);
		// Low detail is a fixed price, whatever the size.
		expect(imageTokens('chat-completions', 4096, 8192, 'low')).toBe(85);
	});

	it('never enlarges a small image: one tile', () => {
		expect(openAiImageTokens(100, 100)).toBe(85 + 170);
		expect(openAiImageTokens(512, 512)).toBe(85 + 170);
		expect(openAiImageTokens(513, 512)).toBe(85 + 2 * 170);
	});

	it('counts a 12-megapixel photo as it will be sent (1024 × 768: four tiles)', () => {
		expect(openAiImageTokens(4000, 3000)).toBe(85 + 4 * 170);
		expect(imageTokens('chat-completions', 3000, 4000)).toBe(85 + 4 * 170);
	});

	it('counts auto detail as high', () => {
		expect(openAiImageTokens(1024, 1024, 'auto')).toBe(765);
	});
});

describe('Anthropic image tokens (width × height / 750)', () => {
	it("gives Anthropic's published examples", () => {
		expect(imageTokens('anthropic', 1092, 1092)).toBe(1590);
		expect(anthropicImageTokens(200, 200)).toBe(54);
		expect(anthropicImageTokens(1000, 1000)).toBe(1334);
	});

	it("counts a large image after Anthropic's own scaling, never more than about 1,600 tokens", () => {
		const photo = anthropicImageTokens(4000, 3000);
		expect(photo).toBeLessThanOrEqual(1600);
		expect(photo).toBeGreaterThan(1500);
		// A long strip is bounded by its long edge (1568 px) instead.
		expect(anthropicImageTokens(8000, 200)).toBe(Math.ceil((1568 * 39) / 750));
	});
});

describe('imageTokens', () => {
	it('counts nothing for the offline model, which is sent no image, and for an empty size', () => {
		expect(imageTokens('offline', 1024, 1024)).toBe(0);
		expect(imageTokens('anthropic', 0, 100)).toBe(0);
		expect(imageTokens('chat-completions', Number.NaN, 100)).toBe(0);
	});
});
