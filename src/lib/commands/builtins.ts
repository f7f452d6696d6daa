// The built-in slash commands. What they act on (sessions, navigation) comes from the host,
// so the commands themselves stay small and testable.
import type { CommandInvocation, CommandRegistry } from './command-registry';

export interface BuiltinHost {
	/** `/new`: end this session and continue the thread in a new one. */
	newSession(invocation: CommandInvocation, title: string): Promise<void>;
	/** `/reset`: the same, with end reason `reset`. */
	resetSession(invocation: CommandInvocation): Promise<void>;
	/**
	 * `/exit`: end this session and leave it; with `remove`, delete it too once the user
	 * confirmed. Resolves false when the user kept it.
	 */
	exit(invocation: CommandInvocation, options: { remove: boolean }): Promise<boolean>;
	/** `/archive`: archive this session and leave it. */
	archive(invocation: CommandInvocation): Promise<void>;
	/** `/title`: renames this session; resolves to the title as stored (control characters left out). */
	setTitle(invocation: CommandInvocation, title: string): Promise<string>;
	/** `/usage`: the session's figures; in a new chat (no session yet), those of its first request. */
	usage(invocation: CommandInvocation): Promise<string>;
	/** `/compress [focus]`: compacts now; says what happened, and where the thread goes on. */
	compress(invocation: CommandInvocation, focus: string): Promise<{ output: string; sessionId: string }>;
}

/** A host whose code loads on the first command run: each call waits for `load`, then goes to it. */
export function deferredHost(load: () => Promise<BuiltinHost>): BuiltinHost {
	return {
		newSession: async (...args) => (await load()).newSession(...args),
		resetSession: async (...args) => (await load()).resetSession(...args),
		exit: async (...args) => (await load()).exit(...args),
		archive: async (...args) => (await load()).archive(...args),
		setTitle: async (...args) => (await load()).setTitle(...args),
		usage: async (...args) => (await load()).usage(...args),
		compress: async (...args) => (await load()).compress(...args)
	};
}

/**
 * A built-in that acts on the session it was typed in. In a new chat there is none yet (a
 * command alone never begins one: the first message does), and it says so.
 */
function inSession(invocation: CommandInvocation, name: string): void {
	if (!invocation.session_id) throw new Error(`There is no session here yet: /${name} works once your first message has begun one.`);
}

export function registerBuiltins(registry: CommandRegistry, host: BuiltinHost): void {
	registry.addBuiltin({ name: 'help', description: 'List the commands', args_hint: '' }, async () => ({
		output: registry
			.list()
			.map((c) => `/${c.name}${c.args_hint ? ` ${c.args_hint}` : ''} — ${c.description || 'no description'}${c.plugin_id ? ` (plugin ${c.plugin_id})` : ''}`)
			.join('\n')
	}));
	registry.addBuiltin(
		{ name: 'new', description: 'Start a new session in this thread', args_hint: '[title]' },
		async (args, invocation) => {
			inSession(invocation, 'new');
			await host.newSession(invocation, args);
			return { record: false };
		}
	);
	registry.addBuiltin(
		{ name: 'reset', description: 'Start over: a fresh session in this thread', args_hint: '' },
		async (_args, invocation) => {
			inSession(invocation, 'reset');
			await host.resetSession(invocation);
			return { record: false };
		}
	);
	registry.addBuiltin(
		{ name: 'exit', description: 'End this session; --delete also deletes it (asks first)', args_hint: '[--delete]' },
		async (args, invocation) => {
			if (args !== '' && args !== '--delete') throw new Error('Usage: /exit [--delete]');
			inSession(invocation, 'exit');
			const left = await host.exit(invocation, { remove: args === '--delete' });
			return left ? { record: false } : { output: 'Kept this session: nothing was ended or deleted.' };
		}
	);
	registry.addBuiltin(
		{ name: 'archive', description: 'Archive this session (Archived in the sidebar lists it)', args_hint: '' },
		async (_args, invocation) => {
			inSession(invocation, 'archive');
			await host.archive(invocation);
			return { record: false };
		}
	);
	registry.addBuiltin(
		{ name: 'title', description: 'Rename this session', args_hint: '<text>' },
		async (args, invocation) => {
			if (!args) throw new Error('Usage: /title <text>');
			inSession(invocation, 'title');
			return { output: `Session renamed to “${await host.setTitle(invocation, args)}”.` };
		}
	);
	registry.addBuiltin(
		{ name: 'usage', description: 'Show messages and tokens in this session', args_hint: '' },
		async (_args, invocation) => ({ output: await host.usage(invocation) })
	);
	registry.addBuiltin(
		{ name: 'compress', description: 'Compact the conversation now, keeping what you name', args_hint: '[focus]' },
		async (args, invocation) => {
			inSession(invocation, 'compress');
			const { output, sessionId } = await host.compress(invocation, args);
			return { output, recordIn: sessionId };
		}
	);
}
