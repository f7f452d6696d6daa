// `/whoami`: shows who invoked the command and from which session. `source` says who is
// calling; it is identity, not authorization.
/** @import { PluginContext, CommandContext } from '../plugin-api.d.ts' */

export const manifest = {
	name: 'whoami',
	version: '1.0.0',
	description: 'Adds /whoami, which shows the calling user and session.'
};

/**
 * @param {string} _raw_args
 * @param {CommandContext} context
 */
function whoami(_raw_args, { session_id, session_key, platform, source }) {
	const user = source ? `${source.user_name} (${source.user_id})` : 'none (not invoked by a user)';
	return [
		`User: ${user}`,
		`Platform: ${platform}`,
		`Profile: ${source?.profile ?? 'unknown'}`,
		// In a new chat, before its first message, there is no session yet: both ids are ''.
		`Session: ${session_id || 'none yet (a new chat)'}`,
		`Session key: ${session_key || 'none yet'}`
	].join('\n');
}

/** @param {PluginContext} ctx */
export function register(ctx) {
	ctx.register_command('whoami', whoami, { description: 'Show who is calling, from which session' });
}
