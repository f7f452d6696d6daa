// The user's instructions: sentences with a marker word ("always", "never", "must", "don't"…)
// and requests written as commands ("Book the hotel"). Pure.
import { plainForm, type Collector } from './fact-collector';
import { contentWords } from './normalise-fact';

/** A request written as a command ("Book the hotel", "For Porto, find something near the river"); not "Copy of the contract", "Start date is…". */
const IMPERATIVE =
	/(?:^|[,;:]\s*|\b(?:and|so|also|please|just|then|now)\s+)(?:send|put|book|find|keep|drop|ask|remind|use|add|write|make|call|check|remove|include|move|give|copy|tell|reply|email|schedule|cancel|reserve|confirm|pay|stop|start|switch|leave|attach|mention|change|rename|delete|create|update|draft|prepare|pick|choose|buy|print|save|translate|replace|convert|skip|avoid|list)\s+(?!(?:of|date|time|is|was|are|and|or)\b)\S/i;
/** What must be, whoever says it must ("any tool must support SSO"). */
const MUST = /\bmust(?:n['’]t| not)?\b/i;
const INSTRUCTION = /(?:^|[,;:]\s*|\b(?:and|but|so|also|please|just|then)\s+)(?:(?:you|we|it|they|everything|everyone|all|this|that|the \w+)\s+)?(?:always|never|must(?:n['’]t| not)?|don['’]t|do not|make sure|be sure to|ensure|avoid|remember to|under no circumstances|no matter what|stick to|keep (?:it|them|answers?|replies)|use only|only use|please \w+)\b/i;

/** The instructions among a user message's sentences. */
export function collectInstructions(said: readonly string[], seq: number, out: Collector): void {
	for (const sentence of said) {
		if (sentence.endsWith('?') || !(INSTRUCTION.test(sentence) || IMPERATIVE.test(sentence) || MUST.test(sentence))) continue;
		// What the user always or never does is a habit, not an instruction; what the user must do is one.
		if (/^(?:i|i['’]m|i['’]ve)\s+(?:always|never|don['’]t|do not)\b/i.test(sentence) && !MUST.test(sentence)) continue;
		const clean = sentence.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim();
		if (clean.length < 8) continue;
		out.add('instruction', clean, seq, contentWords(plainForm(clean)).join(' '));
	}
}
