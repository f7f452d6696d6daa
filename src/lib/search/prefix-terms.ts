// Which indexed words a word still being typed stands for. A short prefix of a common stem
// ("ter" before "term…") can stand for thousands of words in a hundred thousand messages, and
// scoring all of them took seconds; the closest words (the word itself, then the shortest)
// are taken, at most a fixed number of words holding at most a fixed number of postings, which
// keeps every keystroke's cost bounded. The rest are found once another letter narrows the prefix.
import type MiniSearch from 'minisearch';

/** Postings (word × message) scored for the word being typed, at most (the typed word itself always counts). */
export const PREFIX_POSTINGS = 10_000;
/** Words scored for the word being typed, at most: each costs a pass of its own. */
export const PREFIX_WORDS = 100;
/** MiniSearch's weight for a prefix match, as its own prefix search gives it. */
const PREFIX_WEIGHT = 0.375;

/** What MiniSearch keeps per indexed word: for each field, the messages holding it. */
type TermData = Map<number, Map<number, number>>;
interface TermTree {
	atPrefix(prefix: string): Iterable<[string, TermData]>;
}

/** MiniSearch's word tree (a protected member of the pinned version): null if it is not there. */
function termTree(search: MiniSearch<{ id: string; text: string }>): TermTree | null {
	const tree = (search as unknown as { _index?: Partial<TermTree> })._index;
	return typeof tree?.atPrefix === 'function' ? (tree as TermTree) : null;
}

function postings(data: TermData): number {
	let count = 0;
	for (const docs of data.values()) count += docs.size;
	return count;
}

/**
 * The indexed words `prefix` stands for, closest first, within the postings budget; null when
 * the index's word tree cannot be read (the caller then lets MiniSearch expand the prefix).
 */
export function prefixTerms(search: MiniSearch<{ id: string; text: string }>, prefix: string, budget = PREFIX_POSTINGS, most = PREFIX_WORDS): string[] | null {
	const tree = termTree(search);
	if (!tree) return null;
	const found: Array<[string, number]> = [];
	for (const [term, data] of tree.atPrefix(prefix)) found.push([term, postings(data)]);
	found.sort((a, b) => a[0].length - b[0].length || b[1] - a[1]);
	const terms: string[] = [];
	let used = 0;
	for (const [term, count] of found) {
		if (terms.length >= most) break;
		if (term !== prefix && used + count > budget) continue;
		terms.push(term);
		used += count;
	}
	return terms;
}

/** How much a word found through `prefix` counts, as MiniSearch weighs its own prefix matches. */
export function prefixWeight(prefix: string, term: string): number {
	const distance = term.length - prefix.length;
	return distance <= 0 ? 1 : (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance);
}
