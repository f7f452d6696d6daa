// Re-injects the facts a compaction's summary lost: post_compaction names them (`facts_lost`,
// each as it was written), and the next turn carries them to the model, as plugin context on
// the user's message, so they stay in the conversation from then on. They are kept in storage
// until a turn that carried them completes (a reload, a failed or stopped turn carries them
// again); a later compaction replaces them with its own.
/** @import { PluginContext } from '../plugin-api.d.ts' */

export const manifest = {
	name: 'lost-facts',
	version: '1.0.0',
	description: 'Gives the model the facts a compaction summary lost, on the next turn.'
};

/** @param {string} session_id */
const lostKey = (session_id) => `lost:${session_id}`;

/** @param {readonly string[]} facts */
const context = (facts) => `Facts from the earlier conversation that its summary does not hold (restated after a compaction):\n${facts.map((fact) => `- ${fact}`).join('\n')}`;

/** @param {PluginContext} ctx */
export function register(ctx) {
	/** Sessions whose current turn carries the facts. */
	const carrying = new Set();

	ctx.register_hook('post_compaction', async ({ session_id, facts_lost }) => {
		if (facts_lost.length) await ctx.storage.set(lostKey(session_id), facts_lost);
		else await ctx.storage.delete(lostKey(session_id));
	});

	ctx.register_hook('pre_llm_call', async ({ session_id }) => {
		/** @type {string[] | undefined} */
		const facts = await ctx.storage.get(lostKey(session_id));
		if (!facts?.length) return;
		carrying.add(session_id);
		return context(facts);
	});

	// The model answered with them in view, and they stay on that message: done.
	ctx.register_hook('post_llm_call', async ({ session_id }) => {
		if (!carrying.delete(session_id)) return;
		await ctx.storage.delete(lostKey(session_id));
	});

	ctx.register_hook('on_session_delete', async ({ reason, session_id, deleted_ids }) => {
		if (reason === 'archive') return;
		for (const id of deleted_ids ?? [session_id]) {
			carrying.delete(id);
			await ctx.storage.delete(lostKey(id));
		}
	});
}
