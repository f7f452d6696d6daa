// Every way a title comes in leaves its control characters out: Rename, /title, /new, the
// first message, a branch and an imported file. A title is shown in the sidebar and in
// confirmations, where a bell is invisible and a bidi override turns the words after it around.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandRegistry, type CommandInvocation } from '../commands/command-registry';
import { registerBuiltins, type BuiltinHost } from '../commands/builtins';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { appendMessages } from '../db/message-verbs';
import { getSession } from '../db/session-verbs';
import { testSessionRow } from '../db/test-session-row';
import { HookBus } from '../hooks/hook-bus';
import { branchSession } from './branch-session';
import { renameSession } from './edit-session';
import { importSessions } from './import-sessions';
import { createSession } from './session-lifecycle';
import type { SessionContext } from './session-context';

/** A title as a hostile file or a pasted text could carry it: an override, a bell, an isolate, a line break. */
const HOSTILE = 'Invoice\u0007 \u202Efdp.exe\u2066 copy\u2069\nfinal';
const CLEAN = 'Invoice fdp.exe copy final';

let db: PalimpsestDb;
let ctx: SessionContext;
const model = { provider: 'offline', model: 'offline-mini' };

beforeEach(() => {
	db = openProfileDb(`titles-${crypto.randomUUID()}`);
	ctx = { db, profile: 'home', platform: 'web', now: () => 1_800_000_000_000 };
});

afterEach(async () => {
	await db.delete();
});

describe('a title keeps no control characters', () => {
	it('from Rename: stored without them, a title of nothing else refused as empty', async () => {
		const { id } = await createSession(ctx, model);
		expect(await renameSession(ctx, id, HOSTILE)).toBe(CLEAN);
		expect(await getSession(db, id)).toMatchObject({ title: CLEAN, title_source: 'user' });
		await expect(renameSession(ctx, id, '\u202E\u0007')).rejects.toThrow('A session title cannot be empty.');
		// Right-to-left letters are text, and stay.
		await renameSession(ctx, id, 'خطة الرحلة');
		expect((await getSession(db, id))?.title).toBe('خطة الرحلة');
	});

	it('from /title, which also says the title as stored', async () => {
		const { id } = await createSession(ctx, model);
		const commands = new CommandRegistry(new HookBus({ logger: { warn: () => {} } }));
		const unused = async (): Promise<never> => {
			throw new Error('not used here');
		};
		const host: BuiltinHost = {
			setTitle: (invocation, title) => renameSession(ctx, invocation.session_id, title),
			newSession: unused,
			resetSession: unused,
			usage: unused,
			compress: unused,
			exit: unused,
			archive: unused
		};
		registerBuiltins(commands, host);
		const invocation: CommandInvocation = {
			session_id: id,
			session_key: `web:home:${id}`,
			platform: 'web',
			source: { platform: 'web', user_id: 'u-1', user_name: 'You', chat_id: `web:home:${id}`, thread_id: id, profile: 'home' }
		};
		expect(await commands.execute(`/title ${HOSTILE}`, invocation)).toEqual({ output: `Session renamed to “${CLEAN}”.` });
		expect((await getSession(db, id))?.title).toBe(CLEAN);
	});

	it('from /new with a title, and from the first message', async () => {
		expect((await createSession(ctx, { ...model, title: HOSTILE })).title).toBe(CLEAN);
		expect(await createSession(ctx, { ...model, title: '\u202E' })).toMatchObject({ title: 'New session', title_source: 'auto' });
		const { id } = await createSession(ctx, model);
		await appendMessages(db, id, [{ id: 'q', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: HOSTILE }]);
		expect(await getSession(db, id)).toMatchObject({ title: CLEAN, title_source: 'message' });
	});

	it('in a branch of a session whose title was stored before titles were cleaned', async () => {
		await db.sessions.add(testSessionRow('old', { profile: 'home', title: 'Old\u202E title', title_source: 'user' }));
		await appendMessages(db, 'old', [{ id: 'q', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: 'hello' }]);
		expect((await branchSession(ctx, 'old', 0)).title).toBe('Old title (branch)');
	});

	it('from an imported file: left out as the file is read; a title of nothing else reads as untitled', async () => {
		const row = (id: string, title: string) => ({
			session: { ...testSessionRow(id, { profile: 'elsewhere', title, title_source: 'user', session_key: `web:elsewhere:${id}` }) },
			messages: []
		});
		const file = JSON.stringify({ format: 'palimpsest-sessions', version: 1, exported_at: 1, profile: 'elsewhere', session_count: 3, message_count: 0, sessions: [row('a', HOSTILE), row('b', '\u202E\u0007 '), row('c', 'תוכנית')] });
		expect(await importSessions(db, 'home', file)).toMatchObject({ sessions_added: 3 });
		const [a, b, c] = await db.sessions.bulkGet(['a', 'b', 'c']);
		expect([a?.title, b?.title, c?.title]).toEqual([CLEAN, 'New session', 'תוכנית']);
	});
});
