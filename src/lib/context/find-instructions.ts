// The user's instructions: sentences with a marker word ("always", "never", "must", "don't"…),
// requests written as commands ("Book the hotel", "Do that"), limits ("Four rounds max"), what
// a thing should be ("The confirmation should go to…"), what may not be ("nothing can contain
// nuts") and instructions the user passes on ("He said no hills for 4 weeks"). Pure.
import { plainForm, type Collector } from './fact-collector';
import { contentWords } from './normalise-fact';

/** A request written as a command ("Book the hotel", "For Porto, find something near the river"); not "Copy of the contract", "Start date is…". */
const IMPERATIVE =
	/(?:^|[,;:]\s*|\b(?:and|so|also|please|just|then|now)\s+)(?:send|put|book|find|keep|drop|ask|remind|use|add|write|make|call|check|remove|include|move|give|copy|tell|reply|email|schedule|cancel|reserve|confirm|pay|stop|start|switch|leave|attach|mention|change|rename|delete|create|update|draft|prepare|pick|choose|buy|print|save|translate|replace|convert|skip|avoid|list)\s+(?!(?:of|date|time|is|was|are|and|or)\b)\S/i;
/** Where a clause begins: a sentence's start, after a comma or colon, or after a joining word. */
const CLAUSE = '(?:^|[,;:]\\s*|\\b(?:and|but|so|also|please|just|then|now)\\s+)';
/** More verbs a command begins with, taken when what follows is what the command acts on ("Do that", "Compare the two offers"). */
const COMMAND = new RegExp(
	`${CLAUSE}(?:do|go|run|fix|set|deploy|merge|push|revert|rewrite|shorten|summari[sz]e|show|open|close|share|post|order|bring|take|get|note|flag|sort|group|split|compare|plot|export|upload|download|install|upgrade|restart|retry|limit|sign|submit|forward|explain|suggest|recommend|review|ignore|treat|assume|test|try|read|mark|lower|raise|reduce|increase)\\s+(?:the|a|an|it|that|this|these|those|them|my|our|your|his|her|their|me|us|him|everything|all|both|each|every|only|just|out|up|down|off|back|away|first|now|again|\\d+|one|two|three)\\b`,
	'i'
);
const COUNT = '(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';
/** A limit: "Four rounds max", "Three new features at most", "Max 2 pages". */
const LIMIT = new RegExp(`^(?:${COUNT}(?:\\s+[\\w-]+){1,4}?\\s+(?:max|maximum|min|minimum|tops|at most|at least|only)\\b|(?:max|maximum|at most|no more than|up to)\\s+${COUNT}\\s+\\w)`, 'i');
/** What a thing of the user's should be: "The start date should be 1 September at the latest". */
const SHOULD = /^(?:the|my|our|his|her|their)(?:\s+[\w-]+){1,2}\s+(?:should|needs? to|has to|have to)\b/i;
/** What may not be: "nothing can contain nuts". */
const NONE_MAY = new RegExp(`${CLAUSE}(?:nothing|nobody|no one|none of (?:the|them|these|those)(?:\\s+\\w+)?)\\s+(?:can|may|should|must|is to|are to)\\b`, 'i');
/** An instruction the user passes on from someone else: "He said no speed work", "she told me to rest". */
const PASSED_ON = /\b(?:said|says|told (?:me|us)|asked (?:me|us)|wants (?:me|us)|advised(?: me| us)?)\s+(?:to|not to|no|never|only|always)\b/i;
/** What must be, whoever says it must ("any tool must support SSO"). */
const MUST = /\bmust(?:n['’]t| not)?\b/i;
const INSTRUCTION = /(?:^|[,;:]\s*|\b(?:and|but|so|also|please|just|then)\s+)(?:(?:you|we|it|they|everything|everyone|all|this|that|the \w+)\s+)?(?:always|never|must(?:n['’]t| not)?|don['’]t|do not|make sure|be sure to|ensure|avoid|remember to|under no circumstances|no matter what|stick to|keep (?:it|them|answers?|replies)|use only|only use|please \w+)\b/i;

/** Any of them, read in one pass over a sentence instead of one pass each. */
const ANY_INSTRUCTION = new RegExp([INSTRUCTION, IMPERATIVE, MUST, COMMAND, LIMIT, SHOULD, NONE_MAY, PASSED_ON].map((pattern) => `(?:${pattern.source})`).join('|'), 'i');

/** The instructions among a user message's sentences. */
export function collectInstructions(said: readonly string[], seq: number, out: Collector): void {
	for (const sentence of said) {
		if (sentence.endsWith('?') || !ANY_INSTRUCTION.test(sentence)) continue;
		// What the user always or never does is a habit, not an instruction; what the user must do is one.
		if (/^(?:i|i['’]m|i['’]ve)\s+(?:always|never|don['’]t|do not)\b/i.test(sentence) && !MUST.test(sentence)) continue;
		const clean = sentence.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim();
		if (clean.length < 8) continue;
		out.add('instruction', clean, seq, contentWords(plainForm(clean)).join(' '));
	}
}
