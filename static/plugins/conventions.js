// Re-injects the team's conventions after a compaction, so the model does not lose them when
// the early conversation is summarised away. The mark lives in storage to survive a reload.
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
	// After a rotation, session_id is the session that continues, so the mark follows the user.
	ctx.register_hook('post_compaction', async ({ session_id }) => {
		await ctx.storage.set(pendingKey(session_id), true);
	});

	ctx.register_hook('pre_llm_call', async ({ session_id }) => {
		const key = pendingKey(session_id);
		if (!(await ctx.storage.get(key))) return;
		await ctx.storage.delete(key);
		return CONVENTIONS;
	});

	ctx.register_hook('on_session_delete', async ({ reason, session_id, deleted_ids }) => {
		// An archived session can be unarchived and continued: keep its mark.
		if (reason === 'archive') return;
		for (const id of deleted_ids ?? [session_id]) await ctx.storage.delete(pendingKey(id));
	});
}
