// The offline model's native compaction: the history becomes a recap of what the user asked
// and what was answered, followed by the last exchange unchanged. Deterministic, no network.
import type { ChatMessage } from './types';

const EXCERPT = 100;

function excerpt(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
}

const isQuestion = (m: ChatMessage) => m.role === 'user' && !m.summary;

/**
 * Index of the last exchange: from the last user message on, with the answer before it and
 * that answer's question (an answer is never kept without it).
 */
function lastExchangeStart(history: readonly ChatMessage[]): number {
	const lastUser = history.findLastIndex(isQuestion);
	const lastAssistant = history.findLastIndex((m) => m.role === 'assistant');
	let start = Math.min(...[lastUser, lastAssistant].filter((i) => i >= 0), history.length);
	const question = history.findLastIndex((m, index) => index <= start && isQuestion(m));
	if (question >= 0) start = question;
	while (start > 0 && history[start].role === 'tool') start -= 1;
	return start;
}

export function compactOffline(messages: readonly ChatMessage[]): ChatMessage[] {
	const history = messages.filter((m) => m.role !== 'system');
	const start = lastExchangeStart(history);
	const dropped = history.slice(0, start);
	if (!dropped.some((m) => !m.summary)) return history.map((m) => ({ ...m }));
	const lines: string[] = [];
	for (const message of dropped) {
		if (message.summary) lines.push(...message.content.split('\n').filter((line) => line.startsWith('- ')));
		else if (message.role === 'user') lines.push(`- The user asked: ${excerpt(message.content)}`);
		else if (message.role === 'assistant' && message.content) lines.push(`- The assistant answered: ${excerpt(message.content)}`);
		else if (message.role === 'assistant') lines.push(`- The assistant called ${message.tool_calls?.map((c) => c.name).join(', ')}`);
	}
	const recap: ChatMessage = { role: 'user', summary: true, content: `Recap of the conversation so far (compacted by the offline model):\n${lines.join('\n')}` };
	return [recap, ...history.slice(start).map((m) => ({ ...m }))];
}
