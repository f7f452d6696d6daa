// Keeps a small sidecar per session (turn count, a preview of the last question) and drops it
// when the session is deleted. `/index` shows what it holds.
/** @import { PluginContext } from '../plugin-api.d.ts' */

export const manifest = {
	name: 'session-index',
	version: '1.0.0',
	description: 'Keeps a per-session index entry and removes it when the session is deleted.'
};

/**
 * @typedef {object} IndexEntry
 * @property {number} turns
 * @property {string} last_user_message_preview
 * @property {string} model
 * @property {boolean} archived
 * @property {string} updated_at ISO date
 */

const PREFIX = 'session:';
const PREVIEW_LENGTH = 80;

/** @param {string} session_id */
const entryKey = (session_id) => PREFIX + session_id;

/** @param {string} text */
const preview = (text) => (text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text);

/** @param {PluginContext} ctx */
export function register(ctx) {
	/** @param {string} session_id @returns {Promise<IndexEntry | undefined>} */
	const read = (session_id) => ctx.storage.get(entryKey(session_id));

	ctx.register_hook('on_session_start', async ({ session_id, model }) => {
		/** @type {IndexEntry} */
		const entry = { turns: 0, last_user_message_preview: '', model, archived: false, updated_at: new Date().toISOString() };
		await ctx.storage.set(entryKey(session_id), entry);
	});

	ctx.register_hook('post_llm_call', async ({ session_id, user_message, model }) => {
		const entry = await read(session_id);
		await ctx.storage.set(entryKey(session_id), {
			turns: (entry?.turns ?? 0) + 1,
			last_user_message_preview: preview(user_message),
			model,
			archived: false,
			updated_at: new Date().toISOString()
		});
	});

	ctx.register_hook('on_session_delete', async ({ reason, session_id, deleted_ids }) => {
		for (const id of deleted_ids ?? [session_id]) {
			if (reason !== 'archive') {
				await ctx.storage.delete(entryKey(id));
				continue;
			}
			// Archived sessions still exist and can come back: keep the entry, flag it.
			const entry = await read(id);
			if (entry) await ctx.storage.set(entryKey(id), { ...entry, archived: true });
		}
	});

	ctx.register_command(
		'index',
		async (_raw_args, { session_id }) => {
			const count = (await ctx.storage.keys(PREFIX)).length;
			const entry = await read(session_id);
			const lines = [`Sessions indexed: ${count}`];
			if (!entry) lines.push(`This session (${session_id}) is not indexed yet.`);
			else {
				lines.push(`This session (${session_id}): ${entry.turns} turn(s), model ${entry.model}, updated ${entry.updated_at}`);
				if (entry.last_user_message_preview) lines.push(`Last question: ${entry.last_user_message_preview}`);
			}
			return lines.join('\n');
		},
		{ description: 'Show how many sessions are indexed and this session’s entry' }
	);
}
