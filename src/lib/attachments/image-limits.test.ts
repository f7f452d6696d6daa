import { describe, expect, it } from 'vitest';
import { ANTHROPIC_IMAGE_LIMITS, OPENAI_IMAGE_LIMITS, imageLimitsFor, scaledSize } from './image-limits';

describe('scaledSize', () => {
	it('brings a 12-megapixel photo within Anthropic’s long edge and pixel count, keeping its shape', () => {
		const { width, height } = scaledSize(4000, 3000, ANTHROPIC_IMAGE_LIMITS);
		expect(width).toBeLessThanOrEqual(1568);
		expect(width * height).toBeLessThanOrEqual(1_150_000);
		expect(Math.abs(width / height - 4 / 3)).toBeLessThan(0.01);
		// Not smaller than it must be: the pixel bound decides, to within a pixel.
		expect((width + 1) * (height + 1)).toBeGreaterThan(1_150_000);
	});

	it('fits OpenAI’s 2048 box, then its 768-pixel short side', () => {
		expect(scaledSize(4000, 3000, OPENAI_IMAGE_LIMITS)).toEqual({ width: 1024, height: 768 });
		expect(scaledSize(2048, 4096, OPENAI_IMAGE_LIMITS)).toEqual({ width: 768, height: 1536 });
		// A strip whose short side is small is bounded by its long edge.
		expect(scaledSize(10_000, 100, OPENAI_IMAGE_LIMITS)).toEqual({ width: 2048, height: 20 });
	});

	it('leaves an image that fits as it is, and never enlarges one', () => {
		expect(scaledSize(800, 600, ANTHROPIC_IMAGE_LIMITS)).toEqual({ width: 800, height: 600 });
		expect(scaledSize(1568, 700, ANTHROPIC_IMAGE_LIMITS)).toEqual({ width: 1568, height: 700 });
		expect(scaledSize(10, 10, OPENAI_IMAGE_LIMITS)).toEqual({ width: 10, height: 10 });
	});

	it('keeps a side of at least one pixel', () => {
		expect(scaledSize(100_000, 1, ANTHROPIC_IMAGE_LIMITS)).toEqual({ width: 1568, height: 1 });
	});
});

describe('imageLimitsFor', () => {
	it('gives each wire format its provider’s limits', () => {
		expect(imageLimitsFor('chat-completions')).toBe(OPENAI_IMAGE_LIMITS);
		expect(imageLimitsFor('responses')).toBe(OPENAI_IMAGE_LIMITS);
		expect(imageLimitsFor('anthropic')).toBe(ANTHROPIC_IMAGE_LIMITS);
		expect(OPENAI_IMAGE_LIMITS.maxBytes).toBe(20 * 1024 * 1024);
		expect(ANTHROPIC_IMAGE_LIMITS.maxBytes).toBe(5 * 1024 * 1024);
	});
});
