// Finish reasons that cut an answer short, and the plain reason stored with such an answer.
// An answer that ends with one of them is kept as 'incomplete' (shown with its reason and
// Retry), never as 'complete'. The neutral reasons are defined in providers/types.ts.
import type { FinishReason } from '../providers/types';

/** Stored as the error of an answer the provider cut off at its output limit. */
export const OUTPUT_LIMIT_MESSAGE = "The answer reached the model's output limit.";

export const CUT_SHORT_MESSAGES: Readonly<Partial<Record<FinishReason, string>>> = Object.freeze({
	length: OUTPUT_LIMIT_MESSAGE,
	content_filter: "The provider's content filter stopped the answer.",
	refusal: 'The model declined to answer.',
	// The turn loop may treat this one as a context overflow: compact, then ask again.
	context_window_exceeded: "The conversation filled the model's context window before the answer was finished.",
	paused: 'The provider paused the answer before it was finished.',
	error: 'The provider stopped the answer because of an error.'
});

/** The reason to store for an answer that ended with `finishReason`, or null when it ended normally. */
export function cutShortMessage(finishReason: FinishReason | null): string | null {
	if (finishReason === null || !Object.hasOwn(CUT_SHORT_MESSAGES, finishReason)) return null;
	return CUT_SHORT_MESSAGES[finishReason] ?? null;
}
