// The readable export: each session as a Markdown section, its messages in order, with
// compacted messages and summaries marked as such. Not meant to be imported (JSON is).
import type { MessageRow, SessionRow } from '../db/schema';
import { formatBytes } from '../hooks/plain-data';
import type { ExportEntry } from './transfer-format';

function when(ms: number): string {
	return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

function heading(row: MessageRow): string {
	if (row.kind === 'summary') return 'Summary of earlier messages';
	if (row.kind === 'command') return row.role === 'user' ? 'Command' : 'Command output';
	if (row.kind === 'notice') return 'Notice';
	return { user: 'You', assistant: 'Assistant', tool: 'Tool result', system: 'System' }[row.role];
}

function statusNote(row: MessageRow): string {
	if (row.status === 'aborted') return 'Stopped.';
	if (row.status === 'incomplete' || row.status === 'streaming') return 'Incomplete: the answer was cut off.';
	if (row.status === 'error') return `Error: ${row.error ?? 'the request failed'}`;
	return '';
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it early. */
function fence(text: string): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	return '`'.repeat(longest + 1);
}

function messageToMarkdown(row: MessageRow): string {
	const parts = [`### ${heading(row)}${row.active ? '' : row.shelved ? ` (version ${row.shelved.version}, not on show)` : ' (compacted)'}`, ''];
	if (row.role === 'tool' || row.kind === 'command') {
		const f = fence(row.content);
		parts.push(f, row.content, f);
	} else if (row.content) {
		parts.push(row.content);
	}
	// Named, not embedded: the JSON export carries their bytes.
	if (row.attachments?.length) {
		parts.push('', `*Attached: ${row.attachments.map((a) => `${a.name.replace(/[*_`[\]\\]/g, '\\$&')} (${a.type === 'image' ? `image, ${a.width} × ${a.height}` : a.mimeType}, ${formatBytes(a.size)})`).join('; ')}*`);
	}
	for (const call of row.tool_calls ?? []) {
		const f = fence(call.arguments);
		parts.push('', `Called \`${call.name}\` with:`, '', `${f}json`, call.arguments, f);
	}
	const note = statusNote(row);
	if (note) parts.push('', `*${note}*`);
	return parts.join('\n');
}

function sessionFacts(session: SessionRow): string {
	const facts = [`Session ${session.id}`, `started ${when(session.created_at)}`, `model ${session.model} (${session.provider})`];
	if (session.ended_at !== null) facts.push(`ended ${when(session.ended_at)}${session.end_reason ? ` (${session.end_reason})` : ''}`);
	if (session.parent_session_id) facts.push(`continues ${session.parent_session_id} (${session.parent_kind})`);
	if (session.archived) facts.push('archived');
	return `*${facts.join(' · ')}*`;
}

/** The chat's own settings, when it has any: what it was sent with besides the messages. */
function chatSettings(session: SessionRow): string {
	const chat = session.chat_settings;
	if (!chat) return '';
	const list = (names: readonly string[]) => names.map((name) => `\`${name.replace(/`/g, '')}\``).join(', ');
	const facts: string[] = [];
	if (chat.temperature !== undefined) facts.push(`temperature ${chat.temperature}`);
	if (chat.top_p !== undefined) facts.push(`top_p ${chat.top_p}`);
	if (chat.max_tokens !== undefined) facts.push(`at most ${chat.max_tokens} answer tokens`);
	if (chat.reasoning_effort !== undefined) facts.push(`reasoning effort ${chat.reasoning_effort}`);
	if (chat.compaction !== undefined) facts.push(chat.compaction === 'off' ? 'compaction off' : `compacts at ${chat.compaction}%`);
	if (chat.tool_servers_off?.length) facts.push(`without the tool servers ${list(chat.tool_servers_off)}`);
	if (chat.plugin_tools_off?.length) facts.push(`without the plugin tools ${list(chat.plugin_tools_off)}`);
	const parts = facts.length ? [`*Chat settings: ${facts.join(' · ')}*`] : [];
	if (chat.system_prompt) {
		const f = fence(chat.system_prompt);
		parts.push(`### System prompt\n\n${f}\n${chat.system_prompt}\n${f}`);
	}
	return parts.length ? `${parts.join('\n\n')}\n\n` : '';
}

export function sessionToMarkdown({ session, messages }: Pick<ExportEntry, 'session' | 'messages'>): string {
	const body = messages.map(messageToMarkdown).join('\n\n');
	return `## ${session.title}\n\n${sessionFacts(session)}\n\n${chatSettings(session)}${body || '*No messages.*'}\n`;
}

export function markdownHeader(profile: string, exportedAt: number, sessions: number): string {
	return `# Palimpsest sessions\n\nExported from profile “${profile}” on ${when(exportedAt)}: ${sessions} session${sessions === 1 ? '' : 's'}.\n\n`;
}
