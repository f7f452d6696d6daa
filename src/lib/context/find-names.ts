// Names of people, places, organisations and things: runs of capitalised words with the
// connectors between them ("Bank of England"), a sentence's first word only when it is written
// so elsewhere too or looks like a name. Pure.
import { plainForm, type Collector } from './fact-collector';
import { bareWord, eachCapitalWord, isCapitalised, wordFrom } from './read-words';
import { breaksSentence, isSpace } from './split-sentences';

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
/** A model or edition number within a name: the 3000 of "FRITZ!Repeater 3000 AX". */
const MODEL_NUMBER = /^\d{1,5}(?:\.\d{1,2})?$/;
/** Kinds of thing named after someone or something, which end a name: "Alfredson protocol", "Rubin's rules". */
const KINDS = new Set(['protocol', 'method', 'syndrome', 'disease', 'rule', 'rules', 'law', 'principle', 'theorem', 'algorithm', 'effect', 'scale', 'test', 'criteria', 'procedure', 'technique', 'equation', 'distribution', 'diet']);

const isDistinctive = (word: string) => /\p{Ll}\p{Lu}|\p{N}/u.test(word) || /^\p{Lu}{2,}$/u.test(word) || /^\p{Lu}.*\p{Lu}/u.test(word);

/** A title among a name's words. */
const HAS_TITLE = /(?:^|\s)(?:mr|mrs|ms|dr|prof|st)\.?(?=\s|$)/i;

/** The key a summary must hold for a name: the name without its title. */
export function nameKey(text: string, normalise = plainForm): string {
	return normalise(HAS_TITLE.test(text) ? text.split(/\s+/).filter((word) => !TITLES.test(word)).join(' ') : text);
}

/** The words of the sources written capitalised other than at a sentence's start (names). */
export interface WordUse {
	midSentence: Set<string>;
}

/** Which words the texts write capitalised mid-sentence. */
export function readWordUse(texts: readonly string[]): WordUse {
	const use: WordUse = { midSentence: new Set() };
	for (const text of texts) {
		eachCapitalWord(text, (match, atStart) => {
			if (atStart) return;
			const word = bareWord(match.text);
			if (isCapitalised(word)) use.midSentence.add(word);
		});
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
	capital: boolean;
}

/** Whether the gap from `from` to `to` holds two spaces running: a fact taken out before names were read leaves such a gap, and a name does not run across it. */
function crossesTakenFact(text: string, from: number, to: number): boolean {
	for (let at = from + 1; at < to; at++) if (isSpace(text.charCodeAt(at)) && isSpace(text.charCodeAt(at - 1))) return true;
	return false;
}

const isConnector = (word: string) => word.length <= 3 && CONNECTORS.has(word.toLowerCase());
const isModelNumber = (word: string) => word.charCodeAt(0) >= 48 && word.charCodeAt(0) <= 57 && MODEL_NUMBER.test(word);

/** Whether `text` breaks after the word that ends before `end` ("Paris, London"): a run of a name ends there. */
const breaksAfter = (text: string, end: number) => text[end] === ',' || text[end] === ';' || text[end] === ':';

const isTitle = (word: string) => word.length <= 5 && TITLES.test(word);
/** A capitalised word that names no one, written with or without its apostrophe ("Don’t", "Dont"). */
const namesNoOne = (word: string) => NOT_NAMES.has(/['’]/.test(word) ? word.replace(/['’]/g, '') : word);

/** Adds the name `run` makes, if it makes one, and the model numbers it takes to `numbers`. */
function addName(run: NameWord[], text: string, seq: number, use: WordUse, out: Collector, numbers: Set<string>): void {
	let last = run.length - 1;
	while (last >= 0 && CONNECTORS.has(run[last].word.toLowerCase())) last--;
	let first = 0;
	while (first <= last && (namesNoOne(run[first].word) || isTitle(run[first].word)) && !(isTitle(run[first].word) && last > first)) first++;
	// What only follows a name (its model number, its kind) does not begin one.
	while (first <= last && !run[first].capital) first++;
	if (first > last) return;
	let capitals = 0;
	let lone = '';
	for (let i = first; i <= last; i++) {
		if (!run[i].capital) continue;
		capitals++;
		lone = run[i].word;
	}
	const single = capitals === 1 || (capitals === 2 && isTitle(run[first].word));
	const accepted = !(single && NOT_NAMES.has(lone)) && (!run[first].atStart || !single || startsAsName(lone, use));
	const name = text.slice(run[first].index, run[last].index + run[last].word.length);
	if (!accepted || name.length <= 1) return;
	out.add('name', name, seq, nameKey(name));
	for (let i = first; i <= last; i++) if (!run[i].capital && MODEL_NUMBER.test(run[i].word)) numbers.add(run[i].word);
}

/** A product line written as two letters and a slash after its maker's name: the "z/d" of "Hill's z/d". */
const LINE_CODE = /^[a-z]\/[a-z](?![A-Za-z0-9/])/;
const NOT_LINE_CODES = new Set(['w/o', 'n/a', 'i/o']);

/** The product line's code that starts at `at`, or ''. */
function lineCodeAt(text: string, at: number): string {
	if (text.charCodeAt(at + 1) !== 47) return '';
	const code = LINE_CODE.exec(text.slice(at, at + 4))?.[0] ?? '';
	return NOT_LINE_CODES.has(code) ? '' : code;
}

/** What a tool's output quotes: a certificate's, a file's or a product's name ("Certificate 'Apple Distribution: Lumen Labs GmbH' has expired"). */
const QUOTED = /(?<![A-Za-z0-9])['"‘“]([^'"‘’“”\n]{2,120})['"’”](?![A-Za-z0-9])/g;

/**
 * The names a tool's output quotes. The rest of it is not read for names: logs and listings are
 * full of capitalised words that name nothing. Returns the model numbers they took.
 */
export function collectQuotedNames(text: string, seq: number, use: WordUse, out: Collector): Set<string> {
	const numbers = new Set<string>();
	QUOTED.lastIndex = 0;
	for (let quote = QUOTED.exec(text); quote; quote = QUOTED.exec(text)) {
		for (const number of collectNames(quote[1], seq, use, out)) numbers.add(number);
	}
	return numbers;
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
	eachCapitalWord(text, (match, atStart) => {
		const word = bareWord(match.text);
		if (!isCapitalised(word)) return;
		const run: NameWord[] = [{ word, index: match.index, atStart, capital: true }];
		let end = match.index + match.text.length;
		let wordEnd = match.index + word.length;
		while (!breaksAfter(text, end)) {
			const next = wordFrom(text, end);
			if (!next || crossesTakenFact(text, end, next.index) || breaksSentence(text, wordEnd, next.index)) break;
			const code = lineCodeAt(text, next.index);
			if (code) {
				run.push({ word: code, index: next.index, atStart: false, capital: false });
				end = next.index + code.length;
				break;
			}
			const nextWord = bareWord(next.text);
			end = next.index + next.text.length;
			wordEnd = next.index + nextWord.length;
			const capital = isCapitalised(nextWord);
			const kind = !capital && KINDS.has(nextWord);
			if (!capital && !kind && !isConnector(nextWord) && !isModelNumber(nextWord)) break;
			run.push({ word: nextWord, index: next.index, atStart: false, capital });
			if (kind) break;
		}
		addName(run, text, seq, use, out, numbers);
		return end;
	});
	return numbers;
}
