// What an attached image costs a model in tokens, by the size it is sent at. Providers publish
// their rules (OpenAI counts 512-pixel tiles, Anthropic width × height / 750); until a rule
// applies, an image counts nothing, never a guess.

export interface ImageSize {
	width: number;
	height: number;
}

/** Tokens `image` costs with `model`. */
export function countImageTokens(_image: ImageSize, _model: string): number {
	return 0;
}
