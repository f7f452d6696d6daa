// Numbers typed into Settings: each field says its range, and a value outside it (or not a
// number at all) is refused with a message instead of being changed into another. Pure.

export interface NumberRange {
	min: number;
	max: number;
	/** Whole numbers only (the default). */
	integer?: boolean;
}

export type ReadNumber = { ok: true; value: number } | { ok: false; message: string };

const shown = (n: number) => n.toLocaleString('en');

/** "A whole number from 10 to 99." */
export function describeRange(range: NumberRange): string {
	return `${range.integer === false ? 'A number' : 'A whole number'} from ${shown(range.min)} to ${shown(range.max)}.`;
}

/** The typed text as a number in range, or what is wrong with it (nothing is saved then). */
export function readNumber(text: string, range: NumberRange): ReadNumber {
	const trimmed = text.trim();
	const value = Number(trimmed);
	if (!trimmed || !Number.isFinite(value)) return { ok: false, message: `Enter ${describeRange(range).replace(/^A/, 'a').replace(/\.$/, '')}; nothing was saved.` };
	if (value < range.min) return { ok: false, message: `${shown(value)} is less than ${shown(range.min)}, the least allowed; nothing was saved.` };
	if (value > range.max) return { ok: false, message: `${shown(value)} is more than ${shown(range.max)}, the most allowed; nothing was saved.` };
	if (range.integer !== false && !Number.isInteger(value)) return { ok: false, message: `Enter a whole number (not ${shown(value)}); nothing was saved.` };
	return { ok: true, value };
}
