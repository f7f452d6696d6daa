// How a fact and a summary are compared: both are brought to the same plain form (lower case,
// no Markdown, no punctuation, thousands separators and spacing between a number and its unit
// left out), so "`Port 5,432`" in a summary holds the fact "port 5432". Pure.

const IS_ASCII = /^[\t\n\r -~]*$/;
const LIST_NUMBER = /^\s{0,3}\d+[.)]\s/gm;
const LIST_NUMBER_ANYWHERE = /\d[.)]\s/;
const LETTER = 1;
const DIGIT = 2;

/** ASCII `text` in lower case, its words and numbers apart, each run of anything else one space, trimmed. */
function plainAscii(text: string): string {
	let plain = '';
	let previous = 0;
	let space = false;
	for (let at = 0; at < text.length; at++) {
		let code = text.charCodeAt(at);
		if (code >= 65 && code <= 90) code += 32;
		const kind = code >= 97 && code <= 122 ? LETTER : code >= 48 && code <= 57 ? DIGIT : 0;
		if (!kind) {
			space = true;
			previous = 0;
			continue;
		}
		if ((space || (previous && previous !== kind)) && plain) plain += ' ';
		plain += String.fromCharCode(code);
		space = false;
		previous = kind;
	}
	return plain;
}

const MARKDOWN = /[*_~`]+|^\s{0,3}(?:#{1,6}\s|>\s?|[-+*]\s|\d+[.)]\s)/gm;

/** The plain form of `text`: words and numbers separated by single spaces, lower case. */
export function normaliseFact(text: string): string {
	// Most text is ASCII, where the same steps need neither NFKC nor a Unicode pattern (several
	// times slower): what Markdown marks is punctuation, which becomes a space anyway, but for a
	// list's numbers; a step is skipped when its character is absent; and the last steps are one
	// pass over the characters.
	if (IS_ASCII.test(text)) {
		let plain = LIST_NUMBER_ANYWHERE.test(text) ? text.replace(LIST_NUMBER, ' ') : text;
		if (plain.includes("'")) plain = plain.replace(/n't(?![a-z0-9])/gi, ' not');
		if (plain.includes(',')) plain = plain.replace(/(\d),(?=\d{3}(?![a-z0-9]))/gi, '$1');
		if (plain.includes('%')) plain = plain.replace(/%/g, ' percent ');
		return plainAscii(plain);
	}
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

/** The words of an instruction that must all be in one line of a summary for it to be kept: all of them when every one is a small word ("Do that"). */
export function contentWords(normalised: string): string[] {
	const words = normalised.split(' ').filter(Boolean);
	const content = words.filter((word) => !FILLER.has(word));
	return [...new Set(content.length ? content : words)];
}
