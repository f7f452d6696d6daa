// A one-line summary of a payload for the hook log: ids and reasons, never message text or
// whole conversation histories (the log is a bounded ring shown in the UI).

const MAX_SUMMARY = 160;
const MAX_VALUE = 48;
// Conversation content: counted, never copied into the log.
const CONTENT_FIELDS = new Set(['user_message', 'assistant_response', 'conversation_history', 'result']);

export function summarizePayload(payload: unknown): string {
	if (payload === null || typeof payload !== 'object') return '';
	const parts: string[] = [];
	for (const [key, value] of Object.entries(payload)) {
		const shown = CONTENT_FIELDS.has(key) ? describeSize(value) : describeValue(value);
		if (shown !== undefined) parts.push(`${key}=${shown}`);
	}
	const summary = parts.join(' ');
	return summary.length <= MAX_SUMMARY ? summary : `${summary.slice(0, MAX_SUMMARY - 1)}…`;
}

function describeValue(value: unknown): string | undefined {
	if (typeof value === 'string') return value.length <= MAX_VALUE ? value : `${value.slice(0, MAX_VALUE - 1)}…`;
	if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
	if (Array.isArray(value)) return `[${value.length}]`;
	return undefined;
}

function describeSize(value: unknown): string | undefined {
	if (typeof value === 'string') return `(${value.length} chars)`;
	if (Array.isArray(value)) return `[${value.length}]`;
	return undefined;
}
