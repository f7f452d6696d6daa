// Fact fidelity: how well the fact check's extractor finds the facts a careful reader labelled
// (recall and precision, per class), and how many labelled facts a summary keeps, before and
// after the lost facts are added as the app adds them.
//
// Matching. A label and an extracted fact are compared by their plain forms (normaliseFact: case,
// punctuation and Markdown left out) as word sequences: they match when the two are equal or one
// holds the other as a run of whole words ("Dr. Amara Okafor" holds "Amara Okafor", "port 5432"
// holds "5432", but "step 3" does not hold "3 nights"). Instructions are compared by their
// content words (instructionKey, as the check compares them): a labelled instruction matches an
// extracted one when all the words of either are among the other's (an instruction of small
// words only, "Do that", is keyed by all of them, and is looked for among all the other's words). An instruction never
// matches a fact of another class; other classes match across classes (a label "deploy.sh" of
// class path found as an identifier is found: the check treats every class but instructions
// alike), and how many matches crossed classes is counted.
//
// Kept. A summary keeps a labelled fact when it holds the label as the app's check holds an
// extracted fact: factKey (a number without its role word, a name without its title) found as
// a run of words, an instruction's content words in one line (holdsFact).
import { addFacts, checkFacts, factsWithin, holdsFact, instructionKey, readSummary } from '../../src/lib/context/check-facts';
import { costText, type ContextRow } from '../../src/lib/context/context-rows';
import { extractFacts, factKey, FACT_CLASSES, type Fact, type FactClass } from '../../src/lib/context/extract-facts';
import { extractiveSummary } from '../../src/lib/context/extractive-summary';
import { leastTokens } from '../../src/lib/context/least-tokens';
import { normaliseFact } from '../../src/lib/context/normalise-fact';
import { summaryBudget } from '../../src/lib/context/summary-budget';
import { ADD_FACTS_SHARE } from '../../src/lib/agent/summary-facts';
import type { Conversation, Label } from './fidelity-corpus';

export { fidelityCorpus } from './fidelity-corpus';

type Count = (text: string) => number;

/** A label or fact as the matcher reads it. */
interface Comparable {
	instruction: boolean;
	/** Plain form, padded with spaces so whole-word runs are found with includes(). */
	padded: string;
	words: Set<string>;
	/** Every word of an instruction, the small ones too: where another's words are looked for ("Do that" has only small words). */
	all: Set<string>;
}

function comparable(kind: FactClass, text: string): Comparable {
	const instruction = kind === 'instruction';
	const plain = instruction ? instructionKey(text) : normaliseFact(text);
	const words = new Set(plain.split(' '));
	return { instruction, padded: ` ${plain} `, words, all: instruction ? new Set(normaliseFact(text).split(' ')) : words };
}

const subset = (a: Set<string>, b: Set<string>) => [...a].every((word) => b.has(word));

function matches(label: Comparable, fact: Comparable): boolean {
	if (label.instruction !== fact.instruction || label.padded.trim() === '' || fact.padded.trim() === '') return false;
	if (label.instruction) return subset(label.words, fact.all) || subset(fact.words, label.all);
	return label.padded.includes(fact.padded) || fact.padded.includes(label.padded);
}

export interface ClassScore {
	labels: number;
	found: number;
	extracted: number;
	labelled: number;
}

export interface ExtractionScore {
	byClass: Record<FactClass, ClassScore>;
	total: ClassScore;
	/** Matches where the label's class and the fact's differ. */
	crossClass: number;
	conversations: number;
	missed: Array<Label & { conversation: string }>;
	unlabelled: Array<Pick<Fact, 'class' | 'text'> & { conversation: string }>;
}

const emptyScore = (): ClassScore => ({ labels: 0, found: 0, extracted: 0, labelled: 0 });

/** Recall and precision of extractFacts against the labels, conversation by conversation. */
export function scoreExtraction(corpus: readonly Conversation[]): ExtractionScore {
	const byClass = Object.fromEntries(FACT_CLASSES.map((kind) => [kind, emptyScore()])) as Record<FactClass, ClassScore>;
	const total = emptyScore();
	const missed: ExtractionScore['missed'] = [];
	const unlabelled: ExtractionScore['unlabelled'] = [];
	let crossClass = 0;
	for (const conversation of corpus) {
		const facts = extractFacts(conversation.rows);
		const readFacts = facts.map((fact) => comparable(fact.class, fact.text));
		const readLabels = conversation.labels.map((label) => comparable(label.class, label.text));
		conversation.labels.forEach((label, i) => {
			const found = facts.findIndex((_, j) => matches(readLabels[i], readFacts[j]));
			byClass[label.class].labels++;
			total.labels++;
			if (found >= 0) {
				byClass[label.class].found++;
				total.found++;
				if (facts[found].class !== label.class) crossClass++;
			} else missed.push({ ...label, conversation: conversation.id });
		});
		facts.forEach((fact, j) => {
			const labelled = readLabels.some((label) => matches(label, readFacts[j]));
			byClass[fact.class].extracted++;
			total.extracted++;
			if (labelled) {
				byClass[fact.class].labelled++;
				total.labelled++;
			} else unlabelled.push({ class: fact.class, text: fact.text, conversation: conversation.id });
		});
	}
	return { byClass, total, crossClass, conversations: corpus.length, missed, unlabelled };
}

/** The share of `labels` that `summary` holds, as the app's check holds a fact. */
function keptLabels(summary: string, labels: readonly Label[]): Label[] {
	const read = readSummary(summary);
	return labels.filter((label) => holdsFact(read, { class: label.class, key: factKey(label.class, label.text) }));
}

export interface SummaryFidelity {
	conversations: number;
	labels: number;
	/** Labelled facts the summaries hold as written, after automatic adding, after adding every lost fact. */
	kept: number;
	keptAuto: number;
	keptAll: number;
	/** The check's own figures (over the facts it extracted): found, held by the summaries, lost. */
	checked: number;
	checkKept: number;
	/** Lost facts an automatic compaction appended within its tenth of the budget, and those that did not fit. */
	added: number;
	notFitted: number;
	/** Tokens of the conversations, of their summaries, and of what automatic and full adding appended. */
	tokens: number;
	summaryTokens: number;
	autoTokens: number;
	allTokens: number;
	perConversation: Array<{ id: string; labels: number; kept: number; keptAuto: number; keptAll: number; budget: number; notFitted: number }>;
	/** The labelled facts not held even after every lost fact was added (the extractor did not find them as labelled). */
	neverKept: Array<Label & { conversation: string }>;
}

export type Summarise = (conversation: Conversation, budget: number) => Promise<string> | string;

/** The offline model's summary of a whole conversation: the extractive summary within its budget. */
export function offlineSummary(count: Count): Summarise {
	return (conversation, budget) => extractiveSummary(conversation.rows, null, '', { budget, count });
}

/** The tokens of a conversation as the app counts what a compaction replaces. */
export const conversationTokens = (rows: readonly ContextRow[], count: Count) => rows.reduce((sum, row) => sum + count(costText(row)), 0);

/** Summarises each conversation whole, then checks and adds its lost facts as the app does, and counts the labels kept at each step. */
export async function measureSummaries(corpus: readonly Conversation[], summarise: Summarise, count: Count): Promise<SummaryFidelity> {
	const result: SummaryFidelity = { conversations: corpus.length, labels: 0, kept: 0, keptAuto: 0, keptAll: 0, checked: 0, checkKept: 0, added: 0, notFitted: 0, tokens: 0, summaryTokens: 0, autoTokens: 0, allTokens: 0, perConversation: [], neverKept: [] };
	for (const conversation of corpus) {
		const tokens = conversationTokens(conversation.rows, count);
		const budget = summaryBudget(tokens);
		const summary = await summarise(conversation, budget);
		const check = checkFacts(conversation.rows, summary);
		const chosen = factsWithin(check.lost, Math.floor(budget * ADD_FACTS_SHARE), count, leastTokens);
		const auto = addFacts(summary, chosen);
		const all = addFacts(summary, check.lost);
		const keptAll = new Set(keptLabels(all, conversation.labels));
		for (const label of conversation.labels) if (!keptAll.has(label)) result.neverKept.push({ ...label, conversation: conversation.id });
		const row = {
			id: conversation.id,
			labels: conversation.labels.length,
			kept: keptLabels(summary, conversation.labels).length,
			keptAuto: keptLabels(auto, conversation.labels).length,
			keptAll: keptAll.size,
			budget,
			notFitted: check.lost.length - chosen.length
		};
		result.perConversation.push(row);
		result.labels += row.labels;
		result.kept += row.kept;
		result.keptAuto += row.keptAuto;
		result.keptAll += row.keptAll;
		result.checked += check.total;
		result.checkKept += check.kept;
		result.added += chosen.length;
		result.notFitted += row.notFitted;
		result.tokens += tokens;
		const summaryTokens = count(summary);
		result.summaryTokens += summaryTokens;
		result.autoTokens += count(auto) - summaryTokens;
		result.allTokens += count(all) - summaryTokens;
	}
	return result;
}
