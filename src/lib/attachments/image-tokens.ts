// What an image costs in tokens, by each provider's published rule, from its width and height
// as sent. Pure, so the meter, /usage and "What the model received" count the same.
import type { WireApi } from '../providers/wire-target';
import { scaledSize } from './image-limits';

/** OpenAI's detail setting: `low` is a fixed 85 tokens; `high` and `auto` are counted as high. */
export type ImageDetail = 'low' | 'high' | 'auto';

const OPENAI_BASE = 85;
const OPENAI_TILE = 170;
const OPENAI_TILE_SIDE = 512;

/**
 * OpenAI (GPT-4o and GPT-4.1 style tiles): the image is fitted into 2048 × 2048, its shorter
 * side brought down to 768, and each 512-pixel tile costs 170 tokens on top of 85.
 */
export function openAiImageTokens(width: number, height: number, detail: ImageDetail = 'high'): number {
	if (detail === 'low') return OPENAI_BASE;
	const fitted = scaledSize(width, height, { maxLongEdge: 2048 });
	const { width: w, height: h } = scaledSize(fitted.width, fitted.height, { maxShortSide: 768 });
	const tiles = Math.ceil(w / OPENAI_TILE_SIDE) * Math.ceil(h / OPENAI_TILE_SIDE);
	return OPENAI_BASE + OPENAI_TILE * tiles;
}

/** Anthropic's pixels per token, and the sizes past which it scales an image down first. */
const ANTHROPIC_PIXELS_PER_TOKEN = 750;
const ANTHROPIC_MAX_LONG_EDGE = 1568;
const ANTHROPIC_MAX_TOKENS = 1600;

/** Anthropic: width × height / 750, rounded up, after its own scaling (long edge 1568, about 1,600 tokens). */
export function anthropicImageTokens(width: number, height: number): number {
	const sent = scaledSize(width, height, { maxLongEdge: ANTHROPIC_MAX_LONG_EDGE, maxPixels: ANTHROPIC_MAX_TOKENS * ANTHROPIC_PIXELS_PER_TOKEN });
	return Math.ceil((sent.width * sent.height) / ANTHROPIC_PIXELS_PER_TOKEN);
}

/** The tokens of one image of width × height in a request of wire format `api` (none offline: no image is sent). */
export function imageTokens(api: WireApi, width: number, height: number, detail: ImageDetail = 'high'): number {
	if (!(width > 0 && height > 0)) return 0;
	switch (api) {
		case 'chat-completions':
		case 'responses':
			return openAiImageTokens(width, height, detail);
		case 'anthropic':
			return anthropicImageTokens(width, height);
		case 'offline':
			return 0;
	}
}
