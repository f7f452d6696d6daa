// The section that adds a summary's lost facts back to it, each as it was written: what an
// automatic compaction appends, and what "Add lost facts to summary" appends. Pure and small, so
// the marker's action loads it without the extractor.

/** The heading under which lost facts are added to a summary. */
export const LOST_FACTS_HEADING = '## Facts from the compacted messages';

/** The section that appends `facts` to a summary, each as it was written. */
export function lostFactsSection(facts: readonly { text: string }[]): string {
	return `${LOST_FACTS_HEADING}\n${facts.map((fact) => `- ${fact.text.replace(/\s+/g, ' ')}`).join('\n')}`;
}

/** `summary` with `facts` appended (nothing changes when there are none). */
export function addFacts(summary: string, facts: readonly { text: string }[]): string {
	return facts.length ? `${summary.trimEnd()}\n\n${lostFactsSection(facts)}` : summary;
}
