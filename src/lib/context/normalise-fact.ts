// How a fact and a summary are compared: both are brought to the same plain form (lower case,
// no Markdown, no punctuation, thousands separators and spacing between a number and its unit
// left out), so "`Port 5,432`" in a summary holds the fact "port 5432". Pure.

const MARKDOWN = /[*_~`]+|^\s{0,3}(?:#{1,6}\s|>\s?|[-+*]\s|\d+[.)]\s)/gm;

/** The plain form of `text`: words and numbers separated by single spaces, lower case. */
export function normaliseFact(text: string): string {
	return text
		.normalize('NFKC')
		.replace(MARKDOWN, ' ')
		.toLowerCase()
		.replace(/n['’]t\b/g, ' not')
		.replace(/(\d),(?=\d{3}\b)/g, '$1')
		.replace(/%/g, ' percent ')
		.replace(/(\d)(?=\p{L})/gu, '$1 ')
		.replace(/(\p{L})(?=\d)/gu, '$1 ')
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
}

/** Words that carry no fact of their own in an instruction (negations and "must" are kept). */
const FILLER = new Set(
	'a an the to of in on for and or please also just you we i it is are be that this with at by as so will would can could me my our your all any its from into about then there them they he she his her their up out if do does'.split(' ')
);

/** The words of an instruction that must all be in one line of a summary for it to be kept. */
export function contentWords(normalised: string): string[] {
	return [...new Set(normalised.split(' ').filter((word) => word && !FILLER.has(word)))];
}
