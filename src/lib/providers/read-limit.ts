// Reads the numbers out of a provider's "the request is too long" error: the model's context
// window and what the refused request came to, in the provider's own tokens, for the wordings
// of OpenAI, vLLM, Anthropic, llama.cpp, LM Studio, Mistral and Gemini. Pure.
import type { ContextLimit } from './types';

const N = '(\\d[\\d,_]*)';

/** Each pattern names what its numbers are; the first that matches a number wins for it. */
const PATTERNS: Array<{ pattern: RegExp; window?: number; requested?: number }> = [
	// OpenAI, vLLM: "maximum context length is 8192 tokens. However, you requested 9120 tokens
	// (8000 in the messages, 1120 in the completion)" / "…your messages resulted in 9120 tokens".
	{ pattern: new RegExp(`\\(${N} in the messages`, 'i'), requested: 1 },
	{ pattern: new RegExp(`maximum context length is ${N}`, 'i'), window: 1 },
	{ pattern: new RegExp(`resulted in ${N} tokens`, 'i'), requested: 1 },
	{ pattern: new RegExp(`you requested ${N} tokens`, 'i'), requested: 1 },
	// Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".
	{ pattern: new RegExp(`${N} tokens > ${N} maximum`, 'i'), requested: 1, window: 2 },
	// llama.cpp's error object: "n_prompt_tokens": 9120, "n_ctx": 8192.
	{ pattern: new RegExp(`"n_prompt_tokens"\\s*:\\s*${N}`), requested: 1 },
	{ pattern: new RegExp(`"n_ctx"\\s*:\\s*${N}`), window: 1 },
	// LM Studio: "Trying to keep the first 9120 tokens when context the overflows. However, the
	// model is loaded with context length of only 8192 tokens".
	{ pattern: new RegExp(`keep the first ${N} tokens`, 'i'), requested: 1 },
	{ pattern: new RegExp(`context length of only ${N}`, 'i'), window: 1 },
	// Mistral: "Prompt contains 40000 tokens … too large for model with 32768 maximum context length".
	{ pattern: new RegExp(`prompt contains ${N} tokens`, 'i'), requested: 1 },
	{ pattern: new RegExp(`model with ${N} maximum context`, 'i'), window: 1 },
	// Gemini: "The input token count (1234567) exceeds the maximum number of tokens allowed (1048576)".
	{ pattern: new RegExp(`input token count \\(?${N}\\)? exceeds the maximum number of tokens allowed \\(?${N}`, 'i'), requested: 1, window: 2 },
	// Generic: "context window of 8192 tokens", "context size (8192)".
	{ pattern: new RegExp(`context (?:window|size|length) (?:of |is |\\()?${N}`, 'i'), window: 1 }
];

/** Windows outside this range are a misread, not a model. */
const WINDOW_RANGE = [256, 100_000_000] as const;

const toNumber = (text: string | undefined): number | null => {
	const value = Number((text ?? '').replace(/[,_]/g, ''));
	return Number.isFinite(value) && value > 0 ? value : null;
};

/** The window and request size an overflow error states, or null when it states neither. */
export function readContextLimit(text: string): ContextLimit | null {
	let window: number | null = null;
	let requested: number | null = null;
	for (const { pattern, window: w, requested: r } of PATTERNS) {
		const match = pattern.exec(text);
		if (!match) continue;
		if (w !== undefined && window === null) window = toNumber(match[w]);
		if (r !== undefined && requested === null) requested = toNumber(match[r]);
	}
	if (window !== null && (window < WINDOW_RANGE[0] || window > WINDOW_RANGE[1])) window = null;
	return window === null && requested === null ? null : { window, requested };
}
