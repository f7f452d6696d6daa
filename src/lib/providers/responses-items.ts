// Checks for the output items of the OpenAI Responses API (streamed one by one, or listed in a
// whole response) and the provider-neutral events each stands for.
import { isNumber, isRecord, isString, optional } from './frame-checks';
import type { FinishReason, NativeCompaction, StreamEvent, Usage } from './types';

export interface OutputItem {
	type: string;
	id?: string | null;
	call_id?: string | null;
	name?: string | null;
	arguments?: string | null;
	encrypted_content?: string | null;
	content?: unknown;
}

export const isOutputItem = (value: unknown): value is OutputItem =>
	isRecord(value) &&
	isString(value.type) &&
	['id', 'call_id', 'name', 'arguments', 'encrypted_content'].every((key) => optional(value[key], isString));

export const isResponsesUsage = (value: unknown): boolean =>
	isRecord(value) && optional(value.input_tokens, isNumber) && optional(value.output_tokens, isNumber);

export function readUsage(value: unknown): Usage | null {
	if (!isRecord(value) || !isResponsesUsage(value)) return null;
	return { input_tokens: (value.input_tokens as number | undefined) ?? 0, output_tokens: (value.output_tokens as number | undefined) ?? 0 };
}

/** A compaction item the server produced on its own, kept whole so it goes back unchanged. */
export function compactionEvent(item: OutputItem, model: string): StreamEvent {
	const native: NativeCompaction = { api: 'openai-responses', model, items: [item], opaque: true };
	return { type: 'native_compaction', native, summary: null };
}

/** A function call item as a tool call; ids are made up for servers that send none. */
export function toolCallEvent(item: OutputItem, index: number, args?: string): StreamEvent {
	return { type: 'tool_call', call: { id: item.call_id || item.id || `call_${index}`, name: item.name ?? '', arguments: item.arguments || args || '{}' } };
}

/** The text of a whole message item, and whether it was a refusal. */
export function messageText(item: OutputItem): { text: string; refused: boolean } {
	const parts = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
	const text = parts.map((part) => (part.type === 'output_text' && isString(part.text) ? part.text : '')).join('');
	const refusal = parts.map((part) => (part.type === 'refusal' && isString(part.refusal) ? part.refusal : '')).join('');
	return { text: text || refusal, refused: !text && Boolean(refusal) };
}

/** Why an incomplete response stopped (`incomplete_details.reason`), in the neutral words. */
export function incompleteReason(details: unknown): FinishReason {
	const reason = isRecord(details) && isString(details.reason) ? details.reason : '';
	if (reason === 'max_output_tokens' || reason === '') return 'length';
	return reason === 'content_filter' ? 'content_filter' : reason;
}
