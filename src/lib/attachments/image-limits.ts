// How large an image each provider takes, as published, and the size an image is scaled to so
// that it fits: the aspect ratio kept, never enlarged. Pure: the worker and the token rules
// both use it.
import type { WireApi } from '../providers/wire-target';

/** What a provider accepts; every bound is optional but the bytes. Plain data, so it crosses to the worker. */
export interface ImageLimits {
	/** The longer side, in pixels. */
	maxLongEdge?: number;
	/** The shorter side, in pixels (after the long edge fits). */
	maxShortSide?: number;
	/** Width × height. */
	maxPixels?: number;
	/** The encoded file, in bytes. */
	maxBytes: number;
}

/**
 * Anthropic: a long edge over 1568 px or more than about 1.15 megapixels is scaled down on the
 * server (costing time and nothing in quality), and a file over 5 MB is refused.
 */
export const ANTHROPIC_IMAGE_LIMITS: Readonly<ImageLimits> = Object.freeze({ maxLongEdge: 1568, maxPixels: 1_150_000, maxBytes: 5 * 1024 * 1024 });

/**
 * OpenAI (Chat Completions and Responses), high detail: the image is fitted into 2048 × 2048,
 * then its shorter side to 768 px; a file over 20 MB is refused.
 */
export const OPENAI_IMAGE_LIMITS: Readonly<ImageLimits> = Object.freeze({ maxLongEdge: 2048, maxShortSide: 768, maxBytes: 20 * 1024 * 1024 });

/**
 * What an attached image is readied to when it is stored: it is kept once and may go to any
 * provider later, so it fits the strictest. Anthropic's bounds lie within OpenAI's (OpenAI's
 * 768-pixel step is its own scaling, not a refusal), so an image within them reaches both as is.
 */
export const STORED_IMAGE_LIMITS: Readonly<ImageLimits> = ANTHROPIC_IMAGE_LIMITS;

/** The limits of a wire format; `offline` sends no image, and gets the strictest (Anthropic's). */
export function imageLimitsFor(api: WireApi): ImageLimits {
	return api === 'chat-completions' || api === 'responses' ? OPENAI_IMAGE_LIMITS : ANTHROPIC_IMAGE_LIMITS;
}

export interface Size {
	width: number;
	height: number;
}

/** The factor (≤ 1) that brings width × height within the limits' pixel bounds. */
export function scaleFactor(width: number, height: number, limits: Omit<ImageLimits, 'maxBytes'>): number {
	const long = Math.max(width, height);
	const short = Math.min(width, height);
	let factor = 1;
	if (limits.maxLongEdge !== undefined) factor = Math.min(factor, limits.maxLongEdge / long);
	if (limits.maxShortSide !== undefined) factor = Math.min(factor, limits.maxShortSide / short);
	if (limits.maxPixels !== undefined) factor = Math.min(factor, Math.sqrt(limits.maxPixels / (width * height)));
	return factor;
}

/**
 * The size width × height is scaled to so that it fits the limits (itself when it fits). Sides
 * are rounded down, so the result never passes a bound, and are at least 1 pixel.
 */
export function scaledSize(width: number, height: number, limits: Omit<ImageLimits, 'maxBytes'>): Size {
	const factor = scaleFactor(width, height, limits);
	if (factor >= 1) return { width, height };
	// The small epsilon keeps 4000 × (1568 / 4000) at 1568 despite floating point.
	const side = (value: number) => Math.max(1, Math.floor(value * factor + 1e-9));
	return { width: side(width), height: side(height) };
}
