// A command typed while the session rotates into a child (a compaction that continues in a new
// session): it runs for, and is recorded in, the session where the conversation goes on, not
// the parent that has just ended.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { compactSession } from '../../agent/compact-session';
import { seedConversation, useCompactionEnv, type CompactionEnv } from '../../agent/compaction-fixtures';
import { CommandRegistry, type CommandInvocation } from '../../commands/command-registry';
import { listMessages } from '../../db/message-verbs';
import { HookBus } from '../../hooks/hook-bus';
import { runDraftCommand, runTypedCommand } from './command-host';
import type { Services } from '../app/services';

vi.mock('$app/navigation', () => ({ goto: vi.fn() }));

const setup = useCompactionEnv('command-host');
let env: CompactionEnv;
let parent: string;
let calls: CommandInvocation[];
let gate: Promise<void>;
let services: Services;
beforeEach(async () => {
	env = setup.current();
	parent = await env.newSession();
	await seedConversation(env.db, parent, 12);
	calls = [];
	gate = Promise.resolve();
	const commands = new CommandRegistry(new HookBus({ logger: { warn: () => {} } }));
	commands.add('notes', 'note', async (args: string, invocation: CommandInvocation) => {
		calls.push(invocation);
		await gate;
		return `noted: ${args}`;
	}, {});
	services = { db: env.db, profile: { name: 'default', user_id: 'u-1', user_name: 'You' }, commands } as unknown as Services;
});

async function rotate(): Promise<string> {
	const outcome = await compactSession(env.deps({}, { inPlace: false }), { sessionId: parent, reason: 'manual' });
	if (outcome.status !== 'compacted') throw new Error(outcome.message);
	return outcome.sessionId;
}

const commandRows = async (sessionId: string) =>
	(await listMessages(env.db, sessionId)).filter((row) => row.kind === 'command').map((row) => row.content);

describe('a command typed while the session rotates', () => {
	it('whose handler is still running when the rotation commits is recorded in the child', async () => {
		let release!: () => void;
		gate = new Promise((resolve) => (release = resolve));
		const running = runTypedCommand(services, parent, '/note first');
		await vi.waitFor(() => expect(calls).toHaveLength(1));
		const child = await rotate();
		release();
		const recordedIn = await running;
		expect(await commandRows(parent)).toEqual([]);
		expect(await commandRows(child)).toEqual(['/note first', 'noted: first']);
		// The chat follows it there.
		expect(recordedIn).toBe(child);
	});

	it('typed in the parent just after the rotation committed runs for the child and is recorded there', async () => {
		const child = await rotate();
		const recordedIn = await runTypedCommand(services, parent, '/note second');
		expect(calls.map((call) => [call.session_id, call.source?.thread_id])).toEqual([[child, child]]);
		expect(await commandRows(parent)).toEqual([]);
		expect(await commandRows(child)).toEqual(['/note second', 'noted: second']);
		expect(recordedIn).toBe(child);
	});
});

describe('a command typed in a new chat', () => {
	it('runs with no session, and begins none', async () => {
		const before = await env.db.sessions.count();
		expect(await runDraftCommand(services, '/note in a new chat')).toEqual({ output: 'noted: in a new chat', failed: false });
		expect(calls.map((call) => [call.session_id, call.session_key, call.source?.thread_id])).toEqual([['', '', '']]);
		expect(await runDraftCommand(services, '/nothing')).toMatchObject({ failed: true, output: expect.stringMatching(/^Unknown command \/nothing/) });
		expect(await env.db.sessions.count()).toBe(before);
	});
});
