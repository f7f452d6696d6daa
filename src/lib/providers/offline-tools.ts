// The offline model's tool use and its own context management, deterministic like the rest
// of it, so tool rounds and provider-side compaction work with no network:
//   tool:NAME {json}   (the last user message) calls the tool NAME with those arguments, when
//                      the request offers a tool of that name; after its result, the answer
//                      reports what the tool returned.
//   A request carrying more than 6 long tool results (over 400 characters each) has all but
//   the newest 3 cleared from the model's view, and the stream says how many it cleared,
//   as Anthropic's context editing does.
import { hashText } from './offline-answer';
import type { ChatMessage, ToolCall, ToolSchema } from './types';

const LONG_RESULT = 400;
const CLEAR_ABOVE = 6;
const KEEP_NEWEST = 3;

/** The tool call a `tool:NAME {json}` message asks for, when the request offers that tool. */
export function offlineToolCall(messages: readonly ChatMessage[], tools: readonly ToolSchema[] = []): ToolCall | null {
	const last = messages.at(-1);
	if (last?.role !== 'user') return null;
	const match = /^tool:([\w-]+)\s*([\s\S]*)$/.exec(last.content.trim());
	if (!match || !tools.some((tool) => tool.name === match[1])) return null;
	const args = match[2].trim() || '{}';
	return { id: `call_${hashText(`${messages.length}:${last.content}`).toString(36)}`, name: match[1], arguments: args };
}

/** After a tool round, the answer reports each result the model just received. */
export function answerAfterTools(messages: readonly ChatMessage[]): string | null {
	if (messages.at(-1)?.role !== 'tool') return null;
	let start = messages.length;
	while (start > 0 && messages[start - 1].role === 'tool') start -= 1;
	const call = messages[start - 1];
	const names = new Map((call?.tool_calls ?? []).map((c) => [c.id, c.name]));
	const lines = messages.slice(start).map((result) => {
		const text = result.content.replace(/\s+/g, ' ').trim();
		const shown = text.length > 160 ? `${text.slice(0, 160)}…` : text;
		return `- **${names.get(result.tool_call_id ?? '') ?? 'tool'}** returned ${result.content.length.toLocaleString('en')} characters: ${shown}`;
	});
	return `Here is what the tools returned:\n\n${lines.join('\n')}`;
}

/** How many of the oldest long tool results the offline model clears from its view. */
export function clearedToolResults(messages: readonly ChatMessage[]): number {
	const long = messages.filter((message) => message.role === 'tool' && message.content.length > LONG_RESULT).length;
	return long > CLEAR_ABOVE ? long - KEEP_NEWEST : 0;
}
