// A user's short yes to what the assistant proposed ("Do that", "Yes, go ahead"): on its own it
// says nothing a summary could keep, so the instruction it makes is what it accepts, taken from
// the assistant's message before it ("I'd fix the 5 GHz band to channel 36"). Pure.
import { sentences } from './split-sentences';

/** A sentence that only accepts a proposal: "Do that.", "Yes, do it please", "OK, go ahead". */
export const ASSENT =
	/^(?:(?:yes|yeah|ok|okay|sure|great|good|fine|perfect|agreed|sounds good|good idea)[,.!]?\s+)?(?:please\s+)?(?:do (?:that|it|this|so|both)|go ahead(?: with (?:that|it|this))?|go with (?:that|it|this)|let['’]s do (?:that|it|this))(?:,?\s+please)?[.!]?$/i;

/**
 * A proposal's opening words, left out of what it proposes: "I'd", "I suggest we", "Shall I",
 * after a short clause ("With 19 networks nearby, I'd…").
 */
const PROPOSAL =
	/^(?:[^,.?!]{0,60},\s+)?(?:I['’]d|I would|I['’]ll|I will|I can|I could|we could|you could|let['’]s|shall I|should I|(?:do you )?want me to|my suggestion is to)\s+(?:(?:suggest|recommend|propose)\s+)?(?:that\s+)?(?:we\s+|you\s+)?/i;

/** What the last proposal of an assistant's message proposes ("fix the 5 GHz band to channel 36."), or null. */
export function proposalOf(text: string): string | null {
	const said = sentences(text);
	for (let i = said.length - 1; i >= 0; i--) {
		const lead = PROPOSAL.exec(said[i]);
		if (!lead) continue;
		const proposed = said[i].slice(lead[0].length).replace(/\?$/, '.').trim();
		if (proposed.length >= 4) return proposed;
	}
	return null;
}
