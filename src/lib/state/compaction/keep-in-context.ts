// "Keep in context" on a message: pins it, or lets it go. Keeping one that would bring what is
// kept above half the model's window asks first: compaction never folds it, so the rest of the
// conversation gets less room. Loaded with the first press, not with the page.
import { costText } from '../../context/context-rows';
import { findKeptRows } from '../../context/pinned-rows';
import { setPinned } from '../../db/pin-verbs';
import type { MessageRow, SessionRow } from '../../db/schema';
import type { AppState } from '../app/app.svelte';
import type { ConfirmRequest } from '../shared/confirm.svelte';
import type { Services } from '../app/services';

export interface KeepContext {
	services: Pick<Services, 'db' | 'worker' | 'windowFor'>;
	/** The open session and its live rows, as the transcript shows them. */
	session: SessionRow;
	rows: readonly MessageRow[];
	confirm: (request: ConfirmRequest) => Promise<boolean>;
}

/** What is kept is allowed up to this share of the window before keeping more asks first. */
export const KEPT_SHARE_ASKED = 0.5;

/** The tokens of what pins would keep with `row` pinned too (counted in the worker where a row has no count yet), on the meter's scale. */
async function keptTokensWith(context: KeepContext, row: MessageRow): Promise<number> {
	const rows = context.rows.map((each) => (each.seq === row.seq ? { ...each, pinned: true } : each));
	const kept = findKeptRows(rows);
	const uncounted = kept.filter((each) => each.tokens === undefined);
	const counted = uncounted.length ? (await context.services.worker.countTexts(uncounted.map((each) => costText(each)), context.session.model)).counts : [];
	const tokens = kept.reduce((sum, each) => sum + (each.tokens ?? 0), 0) + counted.reduce((a, b) => a + b, 0);
	return Math.round(tokens * (context.session.token_ratio ?? 1));
}

/** Keeps `row` in context, or lets it go if it is kept; returns whether it is kept now. */
export async function toggleKeep(context: KeepContext, row: MessageRow): Promise<boolean> {
	const { services, session } = context;
	if (row.pinned) {
		await setPinned(services.db, row.session_id, row.seq, false);
		return false;
	}
	const window = services.windowFor(session.model);
	const tokens = await keptTokensWith(context, row);
	if (tokens > window * KEPT_SHARE_ASKED) {
		const yes = await context.confirm({
			title: 'Keep this message in context?',
			message: `What you keep in context would then be about ${tokens.toLocaleString('en')} tokens, more than half of the ${window.toLocaleString('en')}-token window of ${session.model}. Compaction never folds it, so the rest of the conversation gets less room and is compacted sooner.`,
			confirmLabel: 'Keep in context'
		});
		if (!yes) return false;
	}
	await setPinned(services.db, row.session_id, row.seq, true);
	return true;
}

/** Keep in context pressed on a message of the open session. */
export async function keepShown(app: Pick<AppState, 'chat' | 'services' | 'confirm'>, row: MessageRow): Promise<boolean> {
	const session = app.chat.session;
	if (!session) return false;
	return toggleKeep({ services: app.services, session, rows: app.chat.messages, confirm: (request) => app.confirm.ask(request) }, row);
}
