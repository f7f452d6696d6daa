// A model writes (or updates) the summary, part by part when what it must read does not fit
// its window: each part updates the summary the previous part left.
import type { ContextRow } from '../context/context-rows';
import { summaryRequest } from '../context/summary-template';
import { throwIfAborted } from '../providers/abort';
import type { Provider } from '../providers/types';
import type { CompactionProgress } from './compaction-types';

export interface SummaryWriter {
	provider: Provider;
	model: string;
	windowTokens: number;
}

/** Splits rows into parts of at most `budget` tokens (a single larger row is a part of its own). */
export function splitForWindow<T extends { tokens?: number }>(rows: readonly T[], budget: number): T[][] {
	const parts: T[][] = [];
	let current: T[] = [];
	let used = 0;
	for (const row of rows) {
		const tokens = row.tokens ?? 0;
		if (current.length && used + tokens > budget) {
			parts.push(current);
			current = [];
			used = 0;
		}
		current.push(row);
		used += tokens;
	}
	if (current.length) parts.push(current);
	return parts;
}

/** A summary without its last section (one the model did not finish). */
function dropLastSection(text: string): string {
	const at = text.lastIndexOf('\n## ');
	return at > 0 ? text.slice(0, at).trimEnd() : text;
}

export async function writeSummary(
	writer: SummaryWriter,
	rows: readonly ContextRow[],
	previousSummary: string | null,
	options: {
		focus?: string;
		signal?: AbortSignal;
		onProgress?: (progress: CompactionProgress) => void;
		/** The summary's token budget: asked for, and `cut` brings an answer that runs over within it. */
		budget?: number;
		cut?: (text: string) => Promise<string>;
	}
): Promise<string> {
	// The transcript part of each request gets about half the window; the rest is the template,
	// the summary so far and the answer.
	const parts = splitForWindow(rows, Math.max(1000, Math.floor(writer.windowTokens / 2)));
	let summary = previousSummary;
	for (const [index, part] of parts.entries()) {
		throwIfAborted(options.signal);
		let text = '';
		let finish = '';
		for await (const event of writer.provider.stream({
			model: writer.model,
			messages: summaryRequest(part, summary, options.focus, options.budget),
			signal: options.signal,
			// Room to run over the budget a little: the cut below keeps whole sections.
			max_tokens: options.budget ? Math.max(1024, Math.ceil(options.budget * 1.5)) : 4096
		})) {
			if (event.type === 'text') {
				text += event.text;
				options.onProgress?.({ phase: 'summarizing', chars: text.length, part: index + 1, parts: parts.length });
			} else if (event.type === 'done') finish = event.finish_reason;
		}
		if (!text.trim()) throw new Error('The model returned an empty summary.');
		// A summary that ran out of room loses its unfinished last section in the cut.
		const ranOver = finish === 'length' && !!options.cut;
		if (finish && finish !== 'stop' && !ranOver) throw new Error(`The summary was cut short (${finish}).`);
		summary = ranOver ? dropLastSection(text.trim()) : text.trim();
		if (options.cut) summary = await options.cut(summary);
	}
	if (summary === null) throw new Error('There was nothing to summarise.');
	return summary;
}
