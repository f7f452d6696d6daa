// The words of export and import: what an import added and left out, and the progress line.
// Loaded with the first export or import, not with the page.
import type { ImportReport, TransferProgress } from '../../sessions/transfer-format';
import { MAX_PROMPTS } from '../../db/schema';

export { formatBytes, MAX_IMPORT_BYTES } from '../../sessions/transfer-format';

export const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/** What an import left out of the file, one sentence each (empty when nothing). */
function describeCuts(report: ImportReport): string {
	const was = (n: number) => (n === 1 ? 'was' : 'were');
	const parts = [
		report.links_removed ? `${report.links_removed === 1 ? '1 link to a session' : `${count(report.links_removed, 'link')} to sessions`} not imported from this file ${was(report.links_removed)} removed.` : '',
		report.loops_removed ? `${count(report.loops_removed, 'link')} that led round in a loop ${was(report.loops_removed)} removed.` : '',
		report.fields_dropped ? `${count(report.fields_dropped, 'unknown field')} ${was(report.fields_dropped)} left out.` : '',
		report.prompts_dropped ? `${report.prompts_dropped === 1 ? '1 prompt that is not' : `${count(report.prompts_dropped, 'prompt')} that are not`} a prompt this app keeps (a missing or overlong field, a name no prompt may have) ${was(report.prompts_dropped)} left out.` : ''
	];
	return parts.filter(Boolean).map((part) => ` ${part}`).join('');
}

/** The sentence an import ends with: what it added, what it skipped and what it left out. */
export function describeImport(report: ImportReport): string {
	const skipped = report.sessions_skipped
		? ` Skipped ${count(report.sessions_skipped, 'session')} already in this profile (${count(report.messages_skipped, 'message')}).`
		: '';
	const promptsSkipped = report.prompts_skipped
		? ` Skipped ${report.prompts_skipped === 1 ? '1 prompt whose id or name this profile has' : `${count(report.prompts_skipped, 'prompt')} whose ids or names this profile has`} already (or past the ${MAX_PROMPTS.toLocaleString('en')} a profile keeps).`
		: '';
	if (!report.sessions_added && !report.prompts_added) {
		const already = report.sessions_skipped ? `all ${count(report.sessions_skipped, 'session')} in the file are already in this profile.` : 'the file holds no sessions.';
		return `Nothing new to import: ${already}${promptsSkipped}${describeCuts(report)}`;
	}
	const sessions = report.sessions_added || !report.prompts_added ? `${count(report.sessions_added, 'session')} (${count(report.messages_added, 'message')})` : '';
	const prompts = report.prompts_added ? count(report.prompts_added, 'prompt') : '';
	return `Imported ${[sessions, prompts].filter(Boolean).join(' and ')}.${skipped}${promptsSkipped}${describeCuts(report)}`;
}

export function describeProgress(busy: 'export' | 'import', progress: TransferProgress | null): string {
	if (!progress) return busy === 'export' ? 'Exporting…' : 'Importing…';
	const { phase, done, total } = progress;
	const of = total ? ` ${done.toLocaleString('en')} of ${total.toLocaleString('en')}` : '';
	if (busy === 'export') return `Exporting: reading sessions…${of}`;
	if (phase === 'reading') return `Importing: reading the file…${total ? ` ${Math.floor((done / total) * 100)} %` : ''}`;
	if (phase === 'checking') return `Importing: checking sessions…${of}`;
	return `Importing: writing messages…${of}`;
}
