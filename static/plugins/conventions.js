// Re-injects the team's conventions after a compaction, so the model does not lose them when
// the early conversation is summarised away. The mark lives in storage to survive a reload,
// and is cleared only when a turn that carried the conventions completes: a turn that fails
// or is stopped leaves it, so the next turn (or Retry) carries them again.
/** @import { PluginContext } from '../plugin-api.d.ts' */

export const manifest = {
	name: 'conventions',
	version: '1.0.0',
	description: 'Reminds the model of the team conventions after the conversation is compacted.'
};

const CONVENTIONS = `Team conventions (restated after the conversation was compacted):
- TypeScript, strict mode; no \`any\`.
- Files in kebab-case, one concept per file.
- Every change comes with a test that can fail.`;

/** @param {string} session_id */
const pendingKey = (session_id) => `pending:${session_id}`;

/** @param {PluginContext} ctx */
export function register(ctx) {
	/**
	 * Per session, the mark whose conventions the current turn carries.
	 * @type {Map<string, unknown>}
	 */
	const injected = new Map();

	// After a rotation, session_id is the session that continues, so the mark follows the user.
	// Each compaction leaves a fresh mark: one made during a turn outlives that turn's clearing.
	ctx.register_hook('post_compaction', async ({ session_id }) => {
		await ctx.storage.set(pendingKey(session_id), crypto.randomUUID());
	});

	ctx.register_hook('pre_llm_call', async ({ session_id }) => {
		const mark = await ctx.storage.get(pendingKey(session_id));
		if (mark === undefined) {
			injected.delete(session_id);
			return;
		}
		injected.set(session_id, mark);
		return CONVENTIONS;
	});

	// Fires only after a completed turn, so the model has answered with the conventions in view.
	ctx.register_hook('post_llm_call', async ({ session_id }) => {
		if (!injected.has(session_id)) return;
		const mark = injected.get(session_id);
		injected.delete(session_id);
		const key = pendingKey(session_id);
		if ((await ctx.storage.get(key)) === mark) await ctx.storage.delete(key);
	});

	ctx.register_hook('on_session_delete', async ({ reason, session_id, deleted_ids }) => {
		// An archived session can be unarchived and continued: keep its mark.
		if (reason === 'archive') return;
		for (const id of deleted_ids ?? [session_id]) {
			injected.delete(id);
			await ctx.storage.delete(pendingKey(id));
		}
	});
}
