// The fact check of a summary: which facts of the rows it replaces it still holds, and the
// section that adds the lost ones back, word for word, within a budget of tokens. Pure; it runs
// in the context worker beside planning and counting.
import { extractFacts, type Fact, type FactClass, type FactSource } from './extract-facts';
import { LOST_FACTS_HEADING } from './lost-facts-section';
import { contentWords, normaliseFact } from './normalise-fact';

export { addFacts, LOST_FACTS_HEADING } from './lost-facts-section';

/** A fact the summary does not hold: what it says, and where it was said. */
export interface LostFact {
	class: FactClass;
	text: string;
	seq: number;
}

export interface FactCheck {
	/** Facts found in the replaced rows. */
	total: number;
	/** Of those, the ones the summary holds as written. */
	kept: number;
	/** The others, message by message. */
	lost: LostFact[];
}

/**
 * The summary as a matcher reads it: its words in order, where each word occurs, and which
 * lines (sentences) hold each word. A fact is then found from its words' few places, not by
 * reading the whole summary once per fact.
 */
export interface ReadSummary {
	words: string[];
	at: Map<string, number[]>;
	lines: Map<string, Set<number>>;
}

export function readSummary(summary: string): ReadSummary {
	const words = normaliseFact(summary).split(' ');
	const at = new Map<string, number[]>();
	words.forEach((word, i) => {
		const list = at.get(word);
		if (list) list.push(i);
		else at.set(word, [i]);
	});
	const lines = new Map<string, Set<number>>();
	summary.split(/\n+|(?<=[.!?;])\s+/).forEach((line, index) => {
		for (const word of normaliseFact(line).split(' ')) {
			const list = lines.get(word);
			if (list) list.add(index);
			else lines.set(word, new Set([index]));
		}
	});
	return { words, at, lines };
}

/** Whether the summary holds the fact: its plain form, or for an instruction every word that carries it, in one line. */
export function holdsFact(summary: ReadSummary, fact: Pick<Fact, 'class' | 'key'>): boolean {
	const words = fact.key.split(' ');
	if (fact.class !== 'instruction') {
		return (summary.at.get(words[0]) ?? []).some((start) => words.every((word, i) => summary.words[start + i] === word));
	}
	const sets = words.map((word) => summary.lines.get(word));
	if (sets.some((set) => !set)) return false;
	const [rarest, ...rest] = (sets as Set<number>[]).sort((a, b) => a.size - b.size);
	for (const line of rarest) if (rest.every((set) => set.has(line))) return true;
	return false;
}

/** Checks `summary` against the facts of `sources`. */
export function checkFacts(sources: readonly FactSource[], summary: string): FactCheck {
	const facts = extractFacts(sources);
	const read = readSummary(summary);
	const lost = facts.filter((fact) => !holdsFact(read, fact)).map(({ class: kind, text, seq }) => ({ class: kind, text, seq }));
	return { total: facts.length, kept: facts.length - lost.length, lost };
}

/**
 * The lost facts that fit in `budget` tokens when appended, message by message (a fact too long
 * for what is left is passed over for shorter ones after it). `least`, when given, says at most
 * how many tokens `count` finds in a text: a fact that cannot fit by it is passed over without
 * counting, as most are once the budget is nearly spent.
 */
export function factsWithin(lost: readonly LostFact[], budget: number, count: (text: string) => number, least?: (text: string) => number): LostFact[] {
	const chosen: LostFact[] = [];
	let used = count(`\n\n${LOST_FACTS_HEADING}`);
	if (used > budget) return chosen;
	for (const fact of lost) {
		if (least && used + least(fact.text) > budget) continue;
		const cost = count(`\n- ${fact.text}`);
		if (used + cost > budget) continue;
		chosen.push(fact);
		used += cost;
	}
	return chosen;
}

/** An instruction's plain key, for callers that compare outside a check (the benchmark's labels). */
export function instructionKey(text: string): string {
	return contentWords(normaliseFact(text)).join(' ');
}
