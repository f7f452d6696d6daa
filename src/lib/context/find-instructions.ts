// The user's instructions: sentences with a marker word ("always", "never", "must", "don't"…),
// requests written as commands ("Book the hotel"), limits ("Four rounds max", "Nothing over
// 2 kg"), what a thing should be ("The confirmation should go to…"), where results go ("Results
// go in reports/q3.md"), what may not be ("nothing can contain nuts"), bans among other
// instructions ("No deep learning"), instructions the user passes on ("He said no hills for
// 4 weeks"), and a yes to what the assistant proposed ("Do that"), as what it accepts. Pure.
import { plainForm, type Collector } from './fact-collector';
import { ASSENT } from './accepted-proposal';
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
/** A limit on every option: "Nothing over 2 kg", "no flight longer than 10 hours". */
const NONE_OVER = new RegExp(
	`${CLAUSE}(?:nothing|none|no\\s+[a-z][\\w-]*(?:\\s+[a-z][\\w-]*)?)\\s+(?:over|above|under|below|(?:more|less|longer|shorter|heavier|bigger|larger|older|newer|later|earlier)\\s+than)\\s+[$€£]?\\d`,
	'i'
);
/** Where a result goes, when it names a file or folder: "Results go in reports/remote_wellbeing.ipynb" (not where others send theirs: "Applications go to jobs@…"). */
const GOES_TO = /^(?:(?:the|all|my|our|any|every)\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:go|goes|belongs?)\s+(?:in|into|to|under)\s+[~.]?[\w.-]*(?:\/\w|\.[a-z][a-z0-9]{1,4}\b)/i;
/**
 * A ban in two or three words, "No deep learning", counted as an instruction when a sentence next
 * to it is one (constraints come in runs); alone it may be an answer ("No other IRAs").
 */
const BAN = /^no\s+(?!(?:problem|problems|worries|idea|thanks|way|doubt|luck|need|rush|one|longer|matter|kidding|reason|wonder|change|changes|other|more|further)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}(?:[,;:]|[.!]?$)/i;
/** Whether a sentence is a ban ("No deep learning"): read only when it begins with "No". */
const isBan = (sentence: string) => (sentence.charCodeAt(0) | 32) === 110 && (sentence.charCodeAt(1) | 32) === 111 && BAN.test(sentence);
/** The longest sentence ASSENT can match. */
const MAX_ASSENT = 40;
/** What must be, whoever says it must ("any tool must support SSO"). */
const MUST = /\bmust(?:n['’]t| not)?\b/i;
const INSTRUCTION = /(?:^|[,;:]\s*|\b(?:and|but|so|also|please|just|then)\s+)(?:(?:you|we|it|they|everything|everyone|all|this|that|the \w+)\s+)?(?:always|never|must(?:n['’]t| not)?|don['’]t|do not|make sure|be sure to|ensure|avoid|remember to|under no circumstances|no matter what|stick to|keep (?:it|them|answers?|replies)|use only|only use|please \w+)\b/i;

/** Any of them, read in one pass over a sentence instead of one pass each. */
const ANY_INSTRUCTION = new RegExp([INSTRUCTION, IMPERATIVE, MUST, COMMAND, LIMIT, SHOULD, NONE_MAY, NONE_OVER, GOES_TO, PASSED_ON].map((pattern) => `(?:${pattern.source})`).join('|'), 'i');

/** Whether a sentence reads as an instruction by itself: not a question, nor what the user always or never does (a habit), unless the user must. */
function isInstruction(sentence: string): boolean {
	if (sentence.endsWith('?') || !ANY_INSTRUCTION.test(sentence)) return false;
	return !/^(?:i|i['’]m|i['’]ve)\s+(?:always|never|don['’]t|do not)\b/i.test(sentence) || MUST.test(sentence);
}

const keyOf = (text: string) => contentWords(plainForm(text)).join(' ');

/**
 * The instructions among a user message's sentences. `proposal` gives what the assistant
 * proposed just before, asked only when the user accepts something ("Do that").
 */
export function collectInstructions(said: readonly string[], seq: number, out: Collector, proposal: () => string | null = () => null): void {
	const alone = said.map(isInstruction);
	said.forEach((sentence, i) => {
		const assent = sentence.length <= MAX_ASSENT && ASSENT.test(sentence);
		if (!assent && !alone[i] && !(isBan(sentence) && (alone[i - 1] || alone[i + 1]))) return;
		const clean = sentence.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim();
		const accepted = assent ? proposal()?.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ') : null;
		if (accepted) out.add('instruction', `${clean.replace(/[.!]$/, '')}: ${accepted}`, seq, keyOf(accepted));
		else if (clean.length >= 8 && (alone[i] || !assent)) out.add('instruction', clean, seq, keyOf(clean));
	});
}
