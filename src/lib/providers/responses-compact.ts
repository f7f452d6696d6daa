// OpenAI's compaction on demand: `POST /responses/compact` returns the conversation's next
// context window (the user messages it kept, then one opaque `compaction` item). The window is
// kept whole, exactly as returned, and goes back as input items from then on.
import { isRecord, isString, listOf, unexpectedReply } from './frame-checks';
import { OPAQUE_SUMMARY } from './native-family';
import { isOutputItem, messageText, type OutputItem } from './responses-items';
import { ProviderError, type ChatMessage } from './types';


/** The text of a user message item, whichever of its shapes it came in. */
function userText(item: OutputItem): string {
	if (isString(item.content)) return item.content;
	const parts = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
	return parts.map((part) => (isString(part.text) ? part.text : '')).join('') || messageText(item).text;
}

/** The history that replaces the compacted one: one summary entry holding the whole window. */
export function readCompaction(value: unknown, model: string): ChatMessage[] {
	if (!isRecord(value) || !listOf(isOutputItem)(value.output)) throw unexpectedReply(value);
	const output = value.output as OutputItem[];
	if (!output.some((item) => item.type === 'compaction')) {
		throw new ProviderError('The provider returned no compaction item; nothing changed.', { kind: 'malformed' });
	}
	const kept = output.filter((item) => item.type === 'message' && (item as { role?: unknown }).role === 'user').map(userText).filter(Boolean);
	const content = kept.length ? `${OPAQUE_SUMMARY}\n\nThe messages it kept:\n${kept.map((text) => `- ${text}`).join('\n')}` : OPAQUE_SUMMARY;
	return [{ role: 'user', summary: true, content, native: { api: 'openai-responses', model, items: output, opaque: true } }];
}
