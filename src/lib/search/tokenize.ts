// How text becomes search terms, the same for what is indexed and what is typed: lower case,
// accents folded (é → e), split at anything that is not a letter, digit or underscore. Chinese,
// Japanese and Korean have no spaces between words, so their runs become every two consecutive
// characters (a lone character stays itself): any two characters the user types then match.
// Terms are cut to MAX_TERM characters, so a pasted blob (base64, a hash) adds one short term.

export const MAX_TERM = 24;

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const MARKS = /\p{M}+/gu;

/** Lower case without accents; CJK characters are left whole (folding would split Hangul). */
function fold(run: string): string {
	return run.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

function pushCjk(run: string, out: string[]): void {
	const chars = [...run];
	if (chars.length === 1) out.push(chars[0]);
	for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
}

function pushWord(run: string, out: string[]): void {
	const term = fold(run);
	if (term) out.push(term.length > MAX_TERM ? term.slice(0, MAX_TERM) : term);
}

/** The terms of `text`, in order (duplicates kept: the index counts them). */
export function tokenize(text: string): string[] {
	const out: string[] = [];
	for (const [word] of text.toLowerCase().normalize('NFC').matchAll(WORD)) {
		let run = '';
		let cjk = false;
		for (const char of word) {
			const isCjk = CJK.test(char);
			if (run && isCjk !== cjk) {
				(cjk ? pushCjk : pushWord)(run, out);
				run = '';
			}
			cjk = isCjk;
			run += char;
		}
		if (run) (cjk ? pushCjk : pushWord)(run, out);
	}
	return out;
}

/** True when `term` came from CJK text (a bigram or a lone character). */
export function isCjkTerm(term: string): boolean {
	return CJK.test(term);
}
