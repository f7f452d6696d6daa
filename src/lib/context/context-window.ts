// Context windows of well-known models and the output budget a request keeps free. Pure.

/** Settings can override the window of any model by its exact name. */
export type WindowOverrides = Readonly<Record<string, number>>;

// First match wins; names are matched in lower case, vendor prefixes ("openai/") included.
const WINDOWS: Array<[RegExp, number]> = [
	[/^offline/, 32_000],
	[/claude-(?:sonnet-4|opus-4|haiku-4)/, 200_000],
	[/claude/, 200_000],
	[/gpt-4\.1/, 1_047_576],
	[/gpt-5/, 400_000],
	[/gpt-4o|chatgpt-4o/, 128_000],
	[/\bo[134](?:-mini|-pro)?\b/, 200_000],
	[/gpt-4-turbo|gpt-4-1106|gpt-4-0125/, 128_000],
	[/gpt-4-32k/, 32_768],
	[/gpt-4(?:-|$)/, 8_192],
	[/gpt-3\.5-turbo-instruct/, 4_096],
	[/gpt-3\.5|gpt-35/, 16_385],
	[/gemini-(?:1\.5|2|3)/, 1_048_576],
	[/gemini/, 32_768],
	[/llama-?3\.[1-3]|llama3\.[1-3]/, 128_000],
	[/llama-?3|llama3/, 8_192],
	[/mistral-large|mistral-medium|mistral-small|codestral/, 128_000],
	[/mixtral/, 32_768],
	[/qwen2\.5|qwen3/, 128_000],
	[/deepseek/, 128_000]
];

export const DEFAULT_CONTEXT_WINDOW = 128_000;

const usable = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/**
 * The context window of `model`: the smaller of an override from Settings and what the
 * provider itself said (`learned`, from an overflow error), else the built-in table.
 */
export function contextWindowFor(model: string, overrides: WindowOverrides = {}, learned: WindowOverrides = {}): number {
	const known = [overrides[model], learned[model]].filter(usable);
	if (known.length) return Math.min(...known);
	const name = model.toLowerCase();
	return WINDOWS.find(([pattern]) => pattern.test(name))?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}

/** Output tokens each request keeps free for the answer: a tenth of the window, at most 8,192. */
export function reservedOutputFor(windowTokens: number): number {
	return Math.min(8_192, Math.floor(windowTokens / 10));
}
