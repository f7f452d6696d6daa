// The facts of one extraction, each once (where first found), up to a limit; and the plain forms
// made meanwhile, kept for the extraction's length, as a conversation names the same things
// again and again. Pure.
import { normaliseFact as normaliseText } from './normalise-fact';
import type { Fact, FactClass } from './fact-types';

/** Enough for any conversation; past this a span's facts are not all checked (the count says so). */
export const MAX_FACTS = 2_000;
const MAX_FACT_CHARS = 240;

/** The plain forms made during one extraction: a conversation names the same things again and again. */
const plainForms = new Map<string, string>();

/** `text`'s plain form (normaliseFact), made once per extraction. */
export function plainForm(text: string): string {
	let plain = plainForms.get(text);
	if (plain === undefined) plainForms.set(text, (plain = normaliseText(text)));
	return plain;
}

/** Lets go of the plain forms made so far (at the start and end of an extraction). */
export function forgetPlainForms(): void {
	plainForms.clear();
}

export class Collector {
	facts: Fact[] = [];
	/** The keys taken, of instructions and of every other fact apart: an instruction may say what a fact says. */
	#seen = new Set<string>();
	#seenInstructions = new Set<string>();

	get full(): boolean {
		return this.facts.length >= MAX_FACTS;
	}

	add(kind: FactClass, text: string, seq: number, key = plainForm(text)): void {
		if (!key || this.facts.length >= MAX_FACTS) return;
		const seen = kind === 'instruction' ? this.#seenInstructions : this.#seen;
		if (seen.has(key)) return;
		seen.add(key);
		this.facts.push({ class: kind, text: text.length > MAX_FACT_CHARS ? `${text.slice(0, MAX_FACT_CHARS - 1)}…` : text, key, seq });
	}
}
