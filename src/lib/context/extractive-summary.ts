// The summary the offline model's compaction writes: extractive, in code, with the same fixed
// headings a model would use. Deterministic and bounded in size however long the input; it
// runs in the worker (a 1M-token session is megabytes of text).
import { attachedItems, nameItem, type ContextRow } from './context-rows';
import { emptySections, formatSummary, parseSummary, SUMMARY_SECTIONS, type SummarySection, type SummarySections } from './summary-template';

/** Items kept per section: the newest ones (the goal keeps its oldest: where it all started). */
const CAPS: Record<SummarySection, number> = {
	Goal: 3,
	Constraints: 10,
	Decisions: 10,
	Done: 12,
	'In progress': 3,
	'Files and references': 20,
	'Open questions': 6
};
const MAX_ITEM = 200;
const MAX_SENTENCES_PER_ROW = 400;

const CONSTRAINT = /\b(must|never|always|don'?t|do not|should(?:n'?t)?|required?|only|avoid|prefer|without)\b/i;
const DECISION = /\b(decid\w*|we(?:'ll| will)|let'?s|going with|chose|agreed|settled on|instead of|plan is)\b/i;
const DONE = /\b(done|implemented|fixed|added|created|wrote|written|completed|finished|updated|removed|renamed|merged)\b/i;
const REFERENCE = /https?:\/\/[^\s)>\]"'`]+|`[^`\n]{2,80}`|(?:\.{0,2}\/)?(?:[\w@.-]+\/)+[\w.-]+\.\w{1,8}\b|\b[\w-]+\.(?:ts|tsx|js|mjs|cjs|svelte|py|rs|go|java|rb|md|json|ya?ml|toml|css|html|sql|sh|txt|csv)\b/g;

function clean(text: string): string {
	const line = text.replace(/^[\s#>]+/, '').replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
	return line.length <= MAX_ITEM ? line : `${line.slice(0, MAX_ITEM - 1).trimEnd()}…`;
}

function sentences(text: string): string[] {
	const out: string[] = [];
	for (const part of text.split(/\n+|(?<=[.!?])\s+/)) {
		const sentence = clean(part.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''));
		if (sentence.length >= 3) out.push(sentence);
		if (out.length >= MAX_SENTENCES_PER_ROW) break;
	}
	return out;
}

/** A section's items, newest last, without repeats (case-insensitive), trimmed to its cap as it grows. */
class Bucket {
	items: string[] = [];
	#seen = new Set<string>();
	constructor(readonly name: SummarySection) {}

	add(items: Iterable<string>): void {
		for (const item of items) {
			const key = item.toLowerCase();
			if (this.#seen.has(key)) continue;
			this.#seen.add(key);
			this.items.push(item);
		}
		if (this.items.length > CAPS[this.name] * 4) this.items = this.kept();
	}

	/** The goal keeps its oldest items (where it all started); other sections their newest. */
	kept(): string[] {
		const cap = CAPS[this.name];
		return this.name === 'Goal' ? this.items.slice(0, cap) : this.items.slice(-cap);
	}
}

/** A summary's size limit: at most `budget` tokens as `count` counts them. */
export interface SummaryFit {
	budget: number;
	count: (text: string) => number;
}

/**
 * Drops items until the summary fits: each time one from the section holding the most (its
 * oldest; the goal its newest), so every section keeps what matters most to it.
 */
function fitSections(sections: SummarySections, fit: SummaryFit): string {
	let text = formatSummary(sections);
	while (fit.count(text) > fit.budget) {
		const fullest = SUMMARY_SECTIONS.reduce((most, name) => (sections[name].length > sections[most].length ? name : most));
		if (!sections[fullest].length) break;
		sections[fullest] = fullest === 'Goal' ? sections[fullest].slice(0, -1) : sections[fullest].slice(1);
		text = formatSummary(sections);
	}
	return text;
}

/**
 * Summarises `rows` with the template, updating `previousSummary` (its items stay unless newer
 * ones push them out of a section's cap). `focus` is kept as part of the goal. With `fit`, the
 * summary stays within its token budget.
 */
export function extractiveSummary(rows: readonly ContextRow[], previousSummary: string | null, focus = '', fit?: SummaryFit): string {
	const previous = previousSummary ? parseSummary(previousSummary) : emptySections();
	const found = Object.fromEntries(SUMMARY_SECTIONS.map((name) => [name, new Bucket(name)])) as Record<SummarySection, Bucket>;
	for (const name of SUMMARY_SECTIONS) found[name].add(previous[name]);
	const references = found['Files and references'];
	let lastUser: string | null = null;
	for (const row of rows) {
		const items = attachedItems(row);
		if (items.length) references.add([clean(`Attached: ${items.map(nameItem).join(', ')}`)]);
		if (row.role === 'tool') {
			for (const match of row.content.slice(0, 20_000).matchAll(REFERENCE)) references.add([clean(match[0])]);
			continue;
		}
		const said = sentences(row.content);
		if (row.role === 'user') {
			if (!found.Goal.items.length && said.length) found.Goal.add([said.slice(0, 2).join(' ')]);
			if (said.length) lastUser = said.join(' ');
			found.Constraints.add(said.filter((s) => CONSTRAINT.test(s)));
			found['Open questions'].add(said.filter((s) => s.endsWith('?')));
		}
		found.Decisions.add(said.filter((s) => DECISION.test(s)));
		if (row.role === 'assistant') found.Done.add(said.filter((s) => DONE.test(s)));
		for (const call of row.tool_calls ?? []) found.Done.add([clean(`Called ${call.name}(${call.arguments})`)]);
		for (const match of row.content.matchAll(REFERENCE)) references.add([clean(match[0])]);
	}
	if (focus.trim()) found.Goal.add([clean(`Focus: ${focus}`)]);
	if (lastUser) found['In progress'].add([clean(`Latest request before this summary: ${lastUser}`)]);
	const sections = emptySections();
	for (const name of SUMMARY_SECTIONS) sections[name] = found[name].kept();
	return fit ? fitSections(sections, fit) : formatSummary(sections);
}
