// Writes a deterministic Markdown essay of about N words for the offline model, so long
// sessions (for compaction, scrolling and storage tests) take one message to make.

const SUBJECTS = [
	'The river',
	'A careful reader',
	'The old library',
	'Every small system',
	'The night shift',
	'A patient gardener'
];
const VERBS = [
	'remembers',
	'rearranges',
	'outlasts',
	'quietly measures',
	'returns to',
	'keeps'
];
const OBJECTS = [
	'the shape of the valley',
	'each forgotten margin note',
	'the rhythm of the seasons',
	'a list of unfinished ideas',
	'the last light of the day',
	'what the map leaves out'
];
const TAILS = [
	'without hurry.',
	'as if nothing else mattered.',
	'and then begins again.',
	'long after everyone has left.',
	'one page at a time.',
	'with surprising care.'
];

/** mulberry32: a tiny seeded PRNG, so the essay depends only on the seed (the benchmarks' corpus uses it too). */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function countWords(text: string): number {
	return text.split(/\s+/).filter(Boolean).length;
}

/** Returns Markdown whose whitespace-separated word count is `words` or a sentence more. */
export function writeEssay(words: number, seed: number): string {
	const next = seededRandom(seed);
	const choose = (list: string[]) => list[Math.floor(next() * list.length)];
	const blocks: string[] = [];
	let paragraph: string[] = [];
	let total = 0;
	let section = 0;
	const flush = () => {
		if (paragraph.length) blocks.push(paragraph.join(' '));
		paragraph = [];
	};
	while (total < words) {
		if (paragraph.length === 0 && blocks.length % 6 === 0 && words - total > 40) {
			const heading = `## Part ${++section}`;
			blocks.push(heading);
			total += countWords(heading);
			continue;
		}
		const sentence = `${choose(SUBJECTS)} ${choose(VERBS)} ${choose(OBJECTS)} ${choose(TAILS)}`;
		paragraph.push(sentence);
		total += countWords(sentence);
		if (paragraph.length >= 5 + Math.floor(next() * 4)) flush();
	}
	flush();
	return blocks.join('\n\n');
}
