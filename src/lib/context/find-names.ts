// Names of people, places, organisations and things: runs of capitalised words with the
// connectors between them ("Bank of England"), a sentence's first word only when it is written
// so elsewhere too or looks like a name. Pure.
import { plainForm, type Collector } from './fact-collector';
import { sentences } from './split-sentences';

/** Capitalised words that start sentences or name no one. */
export const NOT_NAMES = new Set(
	(
		'I Im Ive Ill Id OK Okay Ok Yes No Hi Hello Hey Thanks Thank Please Sure Great Good Fine Sorry Also So But And Or If Then The A An This That These Those It Its We You He She They My Our Your Let Lets What When Where Why How Who Which Here There Now Next First Second Third Finally Note Done Right Well Perfect Cool Nice Alright Actually Maybe Just Oh Ah Hmm Wait Agreed Understood Noted Got Great Yeah Yep Nope Cheers Best Regards Dear ' +
		'Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays January February March April May June July August September October November December ' +
		'Mr Mrs Ms Dr Prof St AM PM FYI ASAP TODO API APIs URL URLs HTTP HTTPS JSON HTML CSS SQL UI UX ID IDs PR PRs CI CLI PDF CSV ETA EOD TLDR IMO BTW AI LLM FAQ OS NB PS ' +
		'Summary Goal Constraints Decisions Progress Files References Questions Open None Latest Focus Called Attached Can Could Would Should Will Is Are Do Does Did Have Has Had Was Were Any Some Every Each All Most Many Both Once In On At For From To With Without By Of As Before After Since Until While Today Tomorrow Yesterday Tonight Morning Afternoon Evening ' +
		'Dont Doesnt Isnt Cant Wont Didnt Theres Heres Thats Whats Its Youre Were Theyre Lets ' +
		'Never Always Must Do Contact Send Make Use Keep Check Add Remove Call Book Try Look Looks Find Take Bring Tell Ask Remember Consider See Give Put Run Fix Update Change Move Write Read Open Close Start Stop Avoid Ensure Be Go Get Set Show Pick Reserve Cancel Confirm Pay Sounds Seems However Otherwise Anyway Meanwhile Overall Unfortunately Fortunately Sadly Luckily Hopefully Apparently Plus Because Although Though Unless Whether Either Neither Not Only Even Still Yet Already Again Another Other Such Same Much More Less Few Several Instead Rather Besides Regarding About Per Via Like Unlike Given Based Yours Mine Ours Theirs Nothing Everything Something Anything Someone Everyone Nobody Happy Glad Welcome'
	).split(' ')
);
const TITLES = /^(?:mr|mrs|ms|dr|prof|st)\.?$/i;
const CONNECTORS = new Set(['of', 'de', 'da', 'di', 'van', 'von', 'der', 'den', 'del', 'la', 'le', 'du', '&']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/gu;
/** A model or edition number within a name: the 3000 of "FRITZ!Repeater 3000 AX". */
const MODEL_NUMBER = /^\d{1,5}(?:\.\d{1,2})?$/;
/** Kinds of thing named after someone or something, which end a name: "Alfredson protocol", "Rubin's rules". */
const KINDS = new Set(['protocol', 'method', 'syndrome', 'disease', 'rule', 'rules', 'law', 'principle', 'theorem', 'algorithm', 'effect', 'scale', 'test', 'criteria', 'procedure', 'technique', 'equation', 'distribution', 'diet']);

const isCapitalised = (word: string) => /^\p{Lu}/u.test(word) || /^\p{Ll}+\p{Lu}/u.test(word);
const isDistinctive = (word: string) => /\p{Ll}\p{Lu}|\p{N}/u.test(word) || /^\p{Lu}{2,}$/u.test(word) || /^\p{Lu}.*\p{Lu}/u.test(word);
const bareWord = (word: string) => word.replace(/['’]s$/u, '').replace(/[.'’-]+$/u, '');

/** The key a summary must hold for a name: the name without its title. */
export function nameKey(text: string, normalise = plainForm): string {
	return normalise(text.split(/\s+/).filter((word) => !TITLES.test(word)).join(' '));
}

/** The words of the sources written capitalised other than at a sentence's start (names), and each source's sentences. */
export interface WordUse {
	midSentence: Set<string>;
	sentences: string[][];
}

const WORD_CHAR = /[\p{L}\p{N}'’.&-]/u;
/** Where a capital may be: an ASCII one, or any character past ASCII (a Unicode pattern reads text several times slower). */
const MAYBE_CAPITAL = /[A-Z\u0080-\uffff]/g;
const IS_CAPITAL = /^\p{Lu}/u;

/** The next capital letter in `text` from `from`, or -1. */
function nextCapital(text: string, from: number): number {
	MAYBE_CAPITAL.lastIndex = from;
	for (let found = MAYBE_CAPITAL.exec(text); found; found = MAYBE_CAPITAL.exec(text)) {
		const code = text.charCodeAt(found.index);
		if (code < 0x80 || IS_CAPITAL.test(text.slice(found.index, found.index + 2))) return found.index;
	}
	return -1;
}

/** The character (a whole code point) that ends before `at`. */
function charBefore(text: string, at: number): string {
	const code = text.charCodeAt(at - 1);
	return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text[at - 1];
}

/** The word (as WORD reads words) that holds the letter at `at`. */
function wordAt(sentence: string, at: number): RegExpExecArray {
	let start = at;
	while (start > 0 && WORD_CHAR.test(charBefore(sentence, start))) start -= charBefore(sentence, start).length;
	WORD.lastIndex = start;
	return WORD.exec(sentence)!;
}

/**
 * Calls `visit` with each word of `sentence` that holds a capital, in order, and whether it is
 * the sentence's first word. Names are made of such words (and the connectors between them):
 * the search goes from capital to capital instead of reading every word, as most words of a
 * conversation have none.
 */
function eachCapitalWord(sentence: string, visit: (word: RegExpExecArray, atStart: boolean) => number | void): void {
	let at = nextCapital(sentence, 0);
	if (at < 0) return;
	WORD.lastIndex = 0;
	const first = WORD.exec(sentence)!;
	while (at >= 0) {
		const word = wordAt(sentence, at);
		// `visit` may read on past the word, and says where to look for the next capital.
		const next = visit(word, word.index === first.index);
		at = nextCapital(sentence, Math.max(word.index + word[0].length, next ?? 0));
	}
}

/** Which words the texts write capitalised mid-sentence, and each text's sentences. */
export function readWordUse(texts: readonly string[]): WordUse {
	const use: WordUse = { midSentence: new Set(), sentences: [] };
	for (const text of texts) {
		const said = sentences(text);
		use.sentences.push(said);
		for (const sentence of said) {
			eachCapitalWord(sentence, (match, atStart) => {
				const word = bareWord(match[0]);
				if (!atStart && isCapitalised(word)) use.midSentence.add(word);
			});
		}
	}
	return use;
}

/** A capitalised word alone at a sentence's start is a name when it is written so elsewhere too, or looks like one ("McKay", "GPT4"). */
function startsAsName(word: string, use: WordUse): boolean {
	return use.midSentence.has(word) || isDistinctive(word);
}

interface NameWord {
	word: string;
	index: number;
	/** The sentence's first word. */
	atStart: boolean;
}

/** Whether `sentence` breaks after the word that ends before `end` ("Paris, London"): a run of a name ends there. */
const breaksAfter = (sentence: string, end: number) => sentence[end] === ',' || sentence[end] === ';' || sentence[end] === ':';

/** Adds the name `run` makes, if it makes one; says whether it did. */
function addName(run: NameWord[], sentence: string, seq: number, use: WordUse, out: Collector): boolean {
	while (run.length && CONNECTORS.has(run.at(-1)!.word.toLowerCase())) run.pop();
	while (run.length && (NOT_NAMES.has(run[0].word.replace(/['’]/g, '')) || TITLES.test(run[0].word)) && !(TITLES.test(run[0].word) && run.length > 1)) run.shift();
	// What only follows a name (its model number, its kind) does not begin one.
	while (run.length && !isCapitalised(run[0].word)) run.shift();
	if (!run.length) return false;
	const first = run[0];
	const capitals = run.filter((item) => isCapitalised(item.word));
	const single = capitals.length === 1 || (capitals.length === 2 && TITLES.test(first.word));
	const lone = capitals.at(-1)!.word;
	const accepted = !(single && NOT_NAMES.has(lone)) && (!first.atStart || !single || startsAsName(lone, use));
	const last = run.at(-1)!;
	const name = sentence.slice(first.index, last.index + last.word.length);
	if (!accepted || name.length <= 1) return false;
	out.add('name', name, seq, nameKey(name));
	return true;
}

/**
 * Names: runs of capitalised words, with connectors between them ("Bank of England") and the
 * model numbers among them ("FRITZ!Repeater 3000 AX", "Rhino 8"), that end at any other word, at
 * the word for the kind of thing a name is given to ("Alfredson protocol"), or at a comma,
 * semicolon or colon. Returns the model numbers they took.
 */
export function collectNames(text: string, seq: number, use: WordUse, out: Collector): Set<string> {
	/** The model numbers the names took, which are no facts of their own. */
	const numbers = new Set<string>();
	for (const sentence of sentences(text)) {
		eachCapitalWord(sentence, (match, atStart) => {
			const word = bareWord(match[0]);
			if (!isCapitalised(word)) return;
			const run: NameWord[] = [{ word, index: match.index, atStart }];
			let end = match.index + match[0].length;
			while (!breaksAfter(sentence, end)) {
				WORD.lastIndex = end;
				const next = WORD.exec(sentence);
				// A fact taken out before names were read leaves a gap of spaces: a name does not run across it.
				if (!next || /\s\s/.test(sentence.slice(end, next.index))) break;
				const nextWord = bareWord(next[0]);
				end = next.index + next[0].length;
				const kind = KINDS.has(nextWord);
				if (!isCapitalised(nextWord) && !CONNECTORS.has(nextWord.toLowerCase()) && !MODEL_NUMBER.test(nextWord) && !kind) break;
				run.push({ word: nextWord, index: next.index, atStart: false });
				if (kind) break;
			}
			if (addName(run, sentence, seq, use, out)) for (const item of run) if (MODEL_NUMBER.test(item.word)) numbers.add(item.word);
			return end;
		});
	}
	return numbers;
}

