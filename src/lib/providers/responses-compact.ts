// OpenAI's compaction on demand: `POST /responses/compact` returns the conversation's next
// context window (the user messages it kept, as typed `message` items or as role/content items,
// then one opaque `compaction` item). The window is kept whole, exactly as returned, and goes
// back as input items from then on.
import { isRecord, isString, listOf, unexpectedReply } from './frame-checks';
import { OPAQUE_SUMMARY } from './native-family';
import { isOutputItem, messageText, type OutputItem } from './responses-items';
import { ProviderError, type ChatMessage } from './types';

/** A message of the window without a type: the API's role/content form of an input message. */
interface RoleItem {
	type?: undefined;
	role: string;
	content?: unknown;
}

const isRoleItem = (value: unknown): value is RoleItem => isRecord(value) && value.type === undefined && isString(value.role);

type WindowItem = OutputItem | RoleItem;

/** A user message the compaction kept: a typed `message` item, or a role/content item. */
const isKeptUser = (item: WindowItem) => (item.type === 'message' || item.type === undefined) && (item as { role?: unknown }).role === 'user';

/** The text of a user message item, whichever of its shapes it came in. */
function userText(item: WindowItem): string {
	if (isString(item.content)) return item.content;
	const parts = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
	const text = parts.map((part) => (isString(part.text) ? part.text : '')).join('');
	return text || (item.type === 'message' ? messageText(item).text : '');
}

/** The history that replaces the compacted one: one summary entry holding the whole window. */
export function readCompaction(value: unknown, model: string): ChatMessage[] {
	if (!isRecord(value) || !listOf((item) => isOutputItem(item) || isRoleItem(item))(value.output)) throw unexpectedReply(value);
	const output = value.output as WindowItem[];
	if (!output.some((item) => item.type === 'compaction')) {
		throw new ProviderError('The provider returned no compaction item; nothing changed.', { kind: 'malformed' });
	}
	const kept = output.filter(isKeptUser).map(userText).filter(Boolean);
	const content = kept.length ? `${OPAQUE_SUMMARY}\n\nThe messages it kept:\n${kept.map((text) => `- ${text}`).join('\n')}` : OPAQUE_SUMMARY;
	return [{ role: 'user', summary: true, content, native: { api: 'openai-responses', model, items: output, opaque: true } }];
}
