// Re-injects the team's conventions after a compaction, so the model does not lose them when
// the early conversation is summarised away. A compaction leaves a mark (in storage, so it
// survives a reload); the next turn carries the conventions, and the mark is cleared only once
// a turn that carried them completes. A turn that fails or is stopped leaves the mark, so the
// next turn or its Retry carries them again; a Retry of the completed turn carries them too.
/** @import { PluginContext } from '../plugin-api.d.ts' */

export const manifest = {
	name: 'conventions',
	version: '1.1.0',
	description: 'Reminds the model of the team conventions after the conversation is compacted.'
};

const CONVENTIONS = `Team conventions (restated after the conversation was compacted):
- TypeScript, strict mode; no \`any\`.
- Files in kebab-case, one concept per file.
- Every change comes with a test that can fail.`;

/**
 * The turn that carried the conventions: a Retry asks the same message on the same history.
 * @typedef {{ user_message: string, history_length: number }} CarriedTurn
 */

/** @param {string} session_id */
const pendingKey = (session_id) => `pending:${session_id}`;
/** @param {string} session_id */
const carriedKey = (session_id) => `carried:${session_id}`;

/** @param {PluginContext} ctx */
export function register(ctx) {
	/**
	 * Per session, the mark whose conventions the current turn carries, and that turn.
	 * @type {Map<string, CarriedTurn & { mark: unknown }>}
	 */
	const injected = new Map();

	// After a rotation, session_id is the session that continues, so the mark follows the user.
	// Each compaction leaves a fresh mark: one made during or after a turn outlives its clearing.
	ctx.register_hook('post_compaction', async ({ session_id }) => {
		await ctx.storage.set(pendingKey(session_id), crypto.randomUUID());
	});

	ctx.register_hook('pre_llm_call', async ({ session_id, user_message, conversation_history }) => {
		const turn = { user_message, history_length: conversation_history.length };
		const mark = await ctx.storage.get(pendingKey(session_id));
		if (mark !== undefined) {
			injected.set(session_id, { mark, ...turn });
			return CONVENTIONS;
		}
		injected.delete(session_id);
		/** @type {CarriedTurn | undefined} */
		const carried = await ctx.storage.get(carriedKey(session_id));
		if (!carried) return;
		// Retry of the completed turn that carried them: the retried request must carry them too.
		if (carried.user_message === turn.user_message && carried.history_length === turn.history_length) return CONVENTIONS;
		await ctx.storage.delete(carriedKey(session_id));
	});

	// Fires only after a completed turn, so the model has answered with the conventions in view.
	ctx.register_hook('post_llm_call', async ({ session_id }) => {
		const sent = injected.get(session_id);
		if (!sent) return;
		injected.delete(session_id);
		// A compaction since then (e.g. the idle pass after this answer) left a newer mark: keep it.
		if ((await ctx.storage.get(pendingKey(session_id))) !== sent.mark) return;
		await ctx.storage.set(carriedKey(session_id), { user_message: sent.user_message, history_length: sent.history_length });
		await ctx.storage.delete(pendingKey(session_id));
	});

	ctx.register_hook('on_session_delete', async ({ reason, session_id, deleted_ids }) => {
		// An archived session can be unarchived and continued: keep its mark.
		if (reason === 'archive') return;
		for (const id of deleted_ids ?? [session_id]) {
			injected.delete(id);
			await ctx.storage.delete(pendingKey(id));
			await ctx.storage.delete(carriedKey(id));
		}
	});
}
