// The fact-fidelity corpus: 29 conversations across domains, each fact labelled by what it is
// (see labelled.ts for the form). What is labelled, as a careful reader would mark it:
// - path: file and folder paths, file names; url: web addresses, bare host names and addresses;
// - identifier: names in code and systems: functions, variables, columns, settings, flags,
//   commands, branches, package and bundle ids, form and account codes;
// - number: a numeral with its unit or role: ports, versions, amounts, dates and times, sizes,
//   doses, durations, scores, counts of things that matter, numbers of orders, invoices and
//   tickets (vague dates such as "end of July" too; numbers spelled in words are not);
// - email: e-mail addresses;
// - name: people, organisations, places, products, named plans, standards, medicines and
//   conditions, whether capitalised or not;
// - instruction: what the user tells the assistant to do or never do, or requires of the
//   result (always, never, must, don't, and plain requests such as "Book the hotel"); what the
//   assistant suggests is not an instruction.
// The same fact written another way ("30 seconds", "30 s") is labelled each way it is written.
import { BUSINESS } from './business';
import { ENGINEERING } from './engineering';
import { FINANCE } from './finance';
import { HEALTH } from './health';
import { HELD_OUT } from './held-out';
import { HOME } from './home';
import { loadConversation, type Conversation } from './labelled';
import { RESEARCH } from './research';
import { TRAVEL_AND_MOVES } from './travel-and-moves';

export type { Conversation, Label } from './labelled';

/**
 * Every conversation of the corpus, labels stripped and recorded; `heldOut` marks the ones
 * written after the extractor was fitted to the others (held-out.ts), whose misses have since shaped
 * general rules too.
 */
export function fidelityCorpus(): Array<Conversation & { heldOut: boolean }> {
	const tuned = [...ENGINEERING, ...TRAVEL_AND_MOVES, ...BUSINESS, ...HEALTH, ...HOME, ...FINANCE, ...RESEARCH];
	return [...tuned.map((written) => ({ ...loadConversation(written), heldOut: false })), ...HELD_OUT.map((written) => ({ ...loadConversation(written), heldOut: true }))];
}
