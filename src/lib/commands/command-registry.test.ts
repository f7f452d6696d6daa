import { describe, expect, it, vi } from 'vitest';
import { HookBus } from '../hooks/hook-bus';
import { CommandRegistry, type CommandInvocation } from './command-registry';
import { registerBuiltins, type BuiltinHost } from './builtins';
import { closeMatches, parseCommand } from './parse-command';

const invocation: CommandInvocation = {
	session_id: 's-1',
	session_key: 'web:default:s-1',
	platform: 'web',
	source: { platform: 'web', user_id: 'u-1', user_name: 'You', chat_id: 'web:default:s-1', thread_id: 's-1', profile: 'default' }
};

const quietBus = (timeoutMs = 1000) => new HookBus({ timeoutSeconds: () => timeoutMs / 1000, logger: { warn: () => {} } });

function registry(timeoutMs = 1000) {
	const commands = new CommandRegistry(quietBus(timeoutMs));
	const host: BuiltinHost = {
		newSession: vi.fn(async () => {}),
		resetSession: vi.fn(async () => {}),
		setTitle: vi.fn(async (_invocation: CommandInvocation, title: string) => title),
		usage: async () => '3 messages',
		compress: vi.fn(async (inv: CommandInvocation, focus: string) => ({ output: focus ? `Kept ${focus}.` : 'Nothing to compact.', sessionId: `${inv.session_id}-next` })),
		exit: vi.fn(async (_invocation: CommandInvocation, { remove }: { remove: boolean }) => !remove),
		archive: vi.fn(async () => {})
	};
	registerBuiltins(commands, host);
	return { commands, host };
}

describe('parseCommand', () => {
	it('splits name and raw args, and ignores what is not a command', () => {
		expect(parseCommand('/Title  My plan  ')).toEqual({ name: 'title', args: 'My plan' });
		expect(parseCommand('/help')).toEqual({ name: 'help', args: '' });
		expect(parseCommand('/new line\nnext')).toEqual({ name: 'new', args: 'line\nnext' });
		expect(parseCommand('hello /help')).toBeNull();
		expect(parseCommand('/ help')).toBeNull();
		expect(closeMatches('whoam', ['whoami', 'help', 'usage'])).toEqual(['whoami']);
	});
});

describe('plugin commands', () => {
	it('calls a two-argument handler with the caller identity and shows its string', async () => {
		const { commands } = registry();
		const handler = vi.fn((args: string, ctx: CommandInvocation) => `${args} from ${ctx.source?.user_id} in ${ctx.session_id}`);
		commands.add('whoami', 'whoami', handler, { description: 'who' });
		expect(await commands.execute('/whoami hi there', invocation)).toEqual({ output: 'hi there from u-1 in s-1' });
		expect(handler.mock.calls[0][1]).toEqual(invocation);
	});

	it('keeps one-argument handlers working and awaits async handlers', async () => {
		const { commands } = registry();
		commands.add('p', 'echo', (args: string) => `echo ${args}`, {});
		commands.add('p', 'later', async (args: string) => {
			await new Promise((r) => setTimeout(r, 10));
			return args.toUpperCase();
		}, {});
		expect((await commands.execute('/echo a b', invocation)).output).toBe('echo a b');
		expect((await commands.execute('/later x', invocation)).output).toBe('X');
	});

	it('abandons a handler that runs past the timeout and reports a thrown error', async () => {
		const { commands } = registry(30);
		commands.add('p', 'hang', () => new Promise(() => {}), {});
		commands.add('p', 'boom', () => {
			throw new Error('kaput');
		}, {});
		await expect(commands.execute('/hang', invocation)).rejects.toThrow('/hang did not answer within 0.03 s; it is skipped for the next 60 s.');
		await expect(commands.execute('/boom', invocation)).rejects.toThrow('/boom failed: kaput');
	});

	it('refuses names that collide with built-ins or other plugins, and bad names', () => {
		const { commands } = registry();
		expect(() => commands.add('p', 'help', () => '', {})).toThrow('"/help" is a built-in command');
		commands.add('a', 'dup', () => '', {});
		expect(() => commands.add('b', 'dup', () => '', {})).toThrow('already registered by plugin "a"');
		expect(() => commands.add('b', 'Bad Name', () => '', {})).toThrow(/lowercase/);
		expect(() => commands.add('b', 'nofn', 'x', {})).toThrow(/handler function/);
	});

	it('refuses every built-in name of the design, even in a registry with no built-ins registered', async () => {
		const { commands } = registry();
		for (const name of ['help', 'new', 'reset', 'compress', 'exit', 'archive', 'title', 'usage']) {
			expect(() => commands.add('p', name, () => 'mine', {}), name).toThrow(`"/${name}" is a built-in command; choose another name.`);
		}
		// Reserved even in a registry with no built-ins registered at all.
		expect(() => new CommandRegistry(quietBus()).add('p', 'archive', () => '', {})).toThrow('"/archive" is a built-in command');
		// Every built-in of the design exists, so the menu and /help list them all.
		expect(commands.list().map((c) => c.name)).toEqual(['archive', 'compress', 'exit', 'help', 'new', 'reset', 'title', 'usage']);
		// A name reserved but not registered is the ordinary unknown command.
		await expect(new CommandRegistry(quietBus()).execute('/archive', invocation)).rejects.toThrow(/^Unknown command \/archive\./);
	});

	it('names close matches for an unknown command', async () => {
		const { commands } = registry();
		commands.add('p', 'whoami', () => '', {});
		await expect(commands.execute('/whoam', invocation)).rejects.toThrow('Unknown command /whoam. Did you mean /whoami?');
		await expect(commands.execute('/zzzzzz', invocation)).rejects.toThrow(/Type \/help/);
	});

	it('unregisters with the undo it returned', async () => {
		const { commands } = registry();
		const undo = commands.add('p', 'gone', () => 'x', {});
		undo();
		expect(commands.has('gone')).toBe(false);
		await expect(commands.execute('/gone', invocation)).rejects.toThrow(/Unknown command/);
	});
});

describe('built-ins', () => {
	it('help lists built-ins and plugin commands; title needs text; new is not recorded', async () => {
		const { commands, host } = registry();
		commands.add('whoami-plugin', 'whoami', () => '', { description: 'Show the caller', args_hint: '' });
		const help = (await commands.execute('/help', invocation)).output!;
		expect(help).toContain('/title <text> — Rename this session');
		expect(help).toContain('/whoami — Show the caller (plugin whoami-plugin)');
		await expect(commands.execute('/title', invocation)).rejects.toThrow('Usage: /title <text>');
		expect(await commands.execute('/new Plan B', invocation)).toEqual({ record: false });
		expect(host.newSession).toHaveBeenCalledWith(invocation, 'Plan B');
		expect((await commands.execute('/usage', invocation)).output).toBe('3 messages');
	});

	it('/exit leaves unrecorded, says so when the user kept the session, and takes only --delete', async () => {
		const { commands, host } = registry();
		expect(await commands.execute('/exit', invocation)).toEqual({ record: false });
		expect(host.exit).toHaveBeenLastCalledWith(invocation, { remove: false });
		// The mock host answers "kept" for --delete, as a user pressing Cancel would.
		expect((await commands.execute('/exit --delete', invocation)).output).toMatch(/^Kept this session/);
		expect(host.exit).toHaveBeenLastCalledWith(invocation, { remove: true });
		await expect(commands.execute('/exit now', invocation)).rejects.toThrow('Usage: /exit [--delete]');
		expect(host.exit).toHaveBeenCalledTimes(2);
		expect(await commands.execute('/archive', invocation)).toEqual({ record: false });
		expect(host.archive).toHaveBeenCalledWith(invocation);
	});
});

describe('in a new chat, where there is no session yet', () => {
	const draft: CommandInvocation = { ...invocation, session_id: '', session_key: '', source: { ...invocation.source!, chat_id: '', thread_id: '' } };

	it('/help and /usage answer; the built-ins that act on a session say there is none and touch nothing', async () => {
		const { commands, host } = registry();
		expect((await commands.execute('/help', draft)).output).toContain('/help — List the commands');
		expect((await commands.execute('/usage', draft)).output).toBe('3 messages');
		for (const text of ['/new Plan B', '/reset', '/exit', '/exit --delete', '/archive', '/title Plan B', '/compress the API']) {
			const name = text.split(' ')[0].slice(1);
			await expect(commands.execute(text, draft), text).rejects.toThrow(`There is no session here yet: /${name} works once your first message has begun one.`);
		}
		for (const verb of ['newSession', 'resetSession', 'exit', 'archive', 'setTitle', 'compress'] as const) expect(host[verb], verb).not.toHaveBeenCalled();
	});

	it('a plugin command runs, told that there is no session (empty ids)', async () => {
		const { commands } = registry();
		commands.add('whoami', 'whoami', (_args: string, ctx: CommandInvocation) => `in "${ctx.session_id}" of "${ctx.session_key}"`, {});
		expect((await commands.execute('/whoami', draft)).output).toBe('in "" of ""');
	});
});

describe('/compress', () => {
	it('passes its focus to the host and records its answer where the thread goes on', async () => {
		const { commands, host } = registry();
		expect(await commands.execute('/compress the API design', invocation)).toEqual({ output: 'Kept the API design.', recordIn: 's-1-next' });
		expect(host.compress).toHaveBeenCalledWith(invocation, 'the API design');
		expect((await commands.execute('/compress', invocation)).output).toBe('Nothing to compact.');
	});
});
