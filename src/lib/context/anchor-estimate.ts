// The request estimate on the provider's scale. Once a provider reported its own count of a
// request, this app's count is scaled by the ratio of the two (its tokenizer may differ): the
// total, and each part alike, so the parts the meter lists always add up to the total it shows.
// The room kept for the answer is the app's own choice and is never scaled. Pure.
import type { RequestTotals } from './count-tokens';

/** The estimate scaled by what the provider reported for an earlier request. */
export function anchoredTotal(estimate: Pick<RequestTotals, 'total' | 'reservedOutput'>, ratio: number | undefined): number {
	const counted = estimate.total - estimate.reservedOutput;
	return Math.round(counted * (ratio ?? 1)) + estimate.reservedOutput;
}

const SCALED = ['systemPrompt', 'systemOverhead', 'toolSchemas', 'messages', 'overhead', 'injected'] as const;

/**
 * Every part scaled by `ratio`, rounded so that they add up exactly to `anchoredTotal`: each
 * part is rounded down, and the tokens still missing go one each to the parts that lost the
 * most in rounding (the largest remainder method).
 */
export function anchorParts(parts: RequestTotals, ratio: number | undefined): RequestTotals {
	const total = anchoredTotal(parts, ratio);
	const exact = SCALED.map((key) => parts[key] * (ratio ?? 1));
	const whole = exact.map(Math.floor);
	const byRemainder = SCALED.map((_, index) => index).sort((a, b) => exact[b] - whole[b] - (exact[a] - whole[a]));
	let missing = total - parts.reservedOutput - whole.reduce((a, b) => a + b, 0);
	for (let turn = 0; missing > 0; turn++, missing--) whole[byRemainder[turn % SCALED.length]] += 1;
	// Rounding down never gives more than the rounded total; should floating point disagree,
	// the largest part gives the difference back.
	for (; missing < 0; missing++) whole[whole.indexOf(Math.max(...whole))] -= 1;
	const scaled = Object.fromEntries(SCALED.map((key, index) => [key, whole[index]])) as Record<(typeof SCALED)[number], number>;
	return { ...parts, ...scaled, total };
}
