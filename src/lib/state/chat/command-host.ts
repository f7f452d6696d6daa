// Connects the built-in slash commands to sessions and navigation, and runs a command typed
// into the Message box, recording it (and its output) in the transcript.
import { goto } from '$app/navigation';
import type { BuiltinHost } from '../../commands/builtins';
import type { CommandInvocation } from '../../commands/command-registry';
import { appendToThread } from '../../db/message-verbs';
import { findThreadHead, getSession } from '../../db/session-verbs';
import { renameSession } from '../../sessions/edit-session';
import { replaceSession } from '../../sessions/session-lifecycle';
import { withWorkLock } from '../../sessions/work-lock';
import { listActiveMessages } from '../../db/compaction-verbs';
import type { ConfirmRequest } from '../shared/confirm.svelte';
import { PLATFORM, type Services } from '../app/services';
import { describeOutcome, type CompactionsState } from '../compaction/compaction.svelte';
import { describeTitledBy, describeUsage, sumFacts } from '../compaction/context-usage';
import { contextRows } from '../../db/context-rows';
import { describeKept } from '../compaction/kept-words';

/**
 * `left(oldId)` tells the chat that the session layer already finalized the old session;
 * `confirm` asks the user before something cannot be undone (`/exit --delete`); `draftModel` is
 * the model a new chat's first message would go to (what `/usage` counts there).
 */
export function createBuiltinHost(
	services: Services,
	left: (oldId: string) => void,
	compactions: CompactionsState,
	confirm: (request: ConfirmRequest) => Promise<boolean> = async () => false,
	draftModel: () => string = () => services.currentModel().model
): BuiltinHost {
	async function replace(invocation: CommandInvocation, reason: 'new_session' | 'reset', title = '') {
		const old = await getSession(services.db, invocation.session_id);
		// The same model again, unless its provider has been removed: then the default one.
		const model = services.currentModel({ provider: old?.provider, model: old?.model });
		// Not while the session answers or compacts, here or in another tab.
		const next = await withWorkLock(services.profile.name, invocation.session_id, { kind: 'command' }, () =>
			replaceSession(services.sessionContext(), invocation.session_id, reason, { ...model, named_provider: services.namedProvider(model.provider), title })
		);
		left(invocation.session_id);
		await goto(`/s/${next.id}`);
	}
	return {
		newSession: (invocation, title) => replace(invocation, 'new_session', title),
		resetSession: (invocation) => replace(invocation, 'reset'),
		async exit(invocation, { remove }) {
			const id = invocation.session_id;
			if (remove) {
				const { planDeletionPrompt } = await import('../sessions/deletion-prompt');
				if (!(await confirm(await planDeletionPrompt(services.db, [id], { exiting: true })))) return false;
			}
			const { exitSession } = await import('../../sessions/exit-session');
			await exitSession(services.sessionContext(), id, { remove });
			left(id);
			await goto('/');
			return true;
		},
		async archive(invocation) {
			const { archiveSessions } = await import('../../sessions/archive-sessions');
			await archiveSessions(services.sessionContext(), [invocation.session_id]);
			await goto('/');
		},
		setTitle: (invocation, title) => renameSession(services.sessionContext(), invocation.session_id, title),
		async compress(invocation, focus) {
			const outcome = await compactions.compact(invocation.session_id, 'manual', focus);
			const sessionId = outcome.status === 'compacted' ? outcome.sessionId : invocation.session_id;
			return { output: describeOutcome(outcome), sessionId };
		},
		async usage(invocation) {
			if (!invocation.session_id) {
				// A new chat: what its first request costs before any message, as its meter shows.
				const usage = await services.contextUsage(null, draftModel());
				if (!usage) throw new Error('The estimate is not available now.');
				return describeUsage(usage, { stored: 0, compactions: 0 });
			}
			// The same estimate the meter shows (and stores for it), made now: never a stale or missing one.
			const [session, usage] = await Promise.all([getSession(services.db, invocation.session_id), services.contextUsage(invocation.session_id)]);
			if (!session || !usage) throw new Error('This session no longer exists.');
			const active = await listActiveMessages(services.db, invocation.session_id);
			const markers = active.filter((row) => row.compaction).map((row) => row.compaction!);
			const kept = describeKept(contextRows(active), session.token_ratio);
			return describeUsage(usage, {
				stored: session.message_count,
				compactions: markers.length,
				facts: sumFacts(markers.filter((marker) => marker.undone_at === undefined)),
				kept: kept && `Kept in context (pinned): ${kept}`,
				// Only while the title is still the model's: a name the user gave since is theirs.
				title: session.titled_by && session.title_source !== 'user' ? describeTitledBy(session.titled_by) : undefined
			});
		}
	};
}

/** Who calls a command, from which session: in a new chat (`session` null) there is none yet, and its ids are ''. */
export function invocationFor(services: Services, session: { id: string; session_key: string } | null): CommandInvocation {
	const id = session?.id ?? '';
	const key = session?.session_key ?? '';
	return {
		session_id: id,
		session_key: key,
		platform: PLATFORM,
		source: {
			platform: PLATFORM,
			user_id: services.profile.user_id,
			user_name: services.profile.user_name,
			chat_id: key,
			thread_id: id,
			profile: services.profile.name
		}
	};
}

/** What a command typed in a new chat said: shown there, never stored (no session begins for it). */
export interface DraftCommandOutcome {
	output?: string;
	failed: boolean;
}

/** Runs a command typed in a new chat, where there is no session yet; errors become its output. */
export async function runDraftCommand(services: Services, text: string): Promise<DraftCommandOutcome> {
	if (!services.commands) throw new Error('Commands are not available.');
	await services.pluginsReady?.();
	try {
		return { output: (await services.commands.execute(text, invocationFor(services, null))).output, failed: false };
	} catch (error) {
		return { output: error instanceof Error ? error.message : String(error), failed: true };
	}
}

/**
 * Runs a typed command; errors become visible command output, and nothing typed is lost.
 * A compaction may have rotated the session into a child (just before, with the view not
 * there yet, or while the command runs): the command then runs for, and is recorded in, the
 * session where the conversation goes on. Returns the session it was recorded in, if any.
 */
export async function runTypedCommand(services: Services, sessionId: string, text: string): Promise<string | null> {
	const session = await getSession(services.db, await findThreadHead(services.db, sessionId));
	if (!session || !services.commands) throw new Error('This session no longer exists.');
	await services.pluginsReady?.();
	let output: string | undefined;
	let failed = false;
	let record = true;
	let recordIn = session.id;
	try {
		const result = await services.commands.execute(text, invocationFor(services, session));
		output = result.output;
		record = result.record !== false;
		recordIn = result.recordIn ?? session.id;
	} catch (error) {
		output = error instanceof Error ? error.message : String(error);
		failed = true;
	}
	if (!record) return null;
	const now = Date.now();
	const recorded = await appendToThread(services.db, recordIn, [
		{ id: crypto.randomUUID(), role: 'user', kind: 'command', content: text.trim(), status: 'complete', created_at: now },
		...(output !== undefined
			? [{ id: crypto.randomUUID(), role: 'assistant' as const, kind: 'command' as const, content: output, status: failed ? ('error' as const) : ('complete' as const), created_at: now, ...(failed ? { error: output } : {}) }]
			: [])
	], now);
	return recorded.sessionId;
}
