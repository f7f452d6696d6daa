// A session is named by a model after its first answer, in the background, through a real
// provider adapter against the local mock provider (its title requests answered apart).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TITLE_INSTRUCTIONS } from '../../agent/title-request';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { appendMessages } from '../../db/message-verbs';
import { getSession, renameSession } from '../../db/session-verbs';
import { HookBus } from '../../hooks/hook-bus';
import { HOOK_NAMES } from '../../hooks/hook-map';
import type { ProviderConfig } from '../../providers/types';
import { createSession } from '../../sessions/session-lifecycle';
import { TITLE_MARK } from '../../../../tests/support/mock-provider.mjs';
import { useMockProvider } from '../../../../tests/support/use-mock-provider';
import { titleAfterFirstAnswer } from './background-title';
import { createServices, OFFLINE_MODEL, OFFLINE_PROVIDER_ID, type Services } from '../app/services';
import { SettingsState } from '../settings/settings.svelte';

const mock = useMockProvider();
let db: PalimpsestDb;
let settings: SettingsState;
let services: Services;
let hooks: HookBus;
const heard = vi.fn();
const provider = (): ProviderConfig => ({ id: 'work', preset: 'custom', label: 'Custom', base_url: `${mock.url}/v1`, api_key: 'k', model: 'mock-model' });

beforeEach(async () => {
	db = openProfileDb(`titles-${crypto.randomUUID()}`);
	await db.open();
	settings = new SettingsState(db);
	await settings.set('providers', [provider(), { id: 'small', preset: 'custom', label: 'Custom', base_url: `${mock.url}/v1`, api_key: 'k', model: 'mock-small' }]);
	hooks = new HookBus({ logger: { warn: () => {} } });
	heard.mockReset();
	for (const name of HOOK_NAMES) hooks.register('watcher', name, (payload: unknown) => void heard(name, payload));
	services = createServices({ db, profile: { name: 'default', user_id: 'u', user_name: 'You', created_at: 0 }, hooks, settings });
});
afterEach(async () => {
	services.worker.dispose();
	await db.delete();
});

const complete = { status: 'complete', kind: 'message', created_at: 1 } as const;

/** A session of `model` that had its first answer. */
async function firstAnswered(model = { provider: 'work', model: 'mock-model' }, question = 'How do I plan a weekend in Lisbon?'): Promise<string> {
	const session = await createSession(services.sessionContext(), model);
	await appendMessages(db, session.id, [
		{ ...complete, id: 'q', role: 'user', content: question },
		{ ...complete, id: 'a', role: 'assistant', content: 'Start in Alfama, then take tram 28.' }
	]);
	heard.mockReset();
	return session.id;
}

describe('a title after the first answer', () => {
	it('is the model’s, cleaned, with the model and its usage noted; no hook fires and no turn is counted', async () => {
		const id = await firstAnswered();
		const before = (await getSession(db, id))!;
		expect(before.title).toBe('How do I plan a weekend in Lisbon?');
		mock.scriptTitles([{ type: 'text', text: '**"A weekend in Lisbon."**', usage: { input_tokens: 61, output_tokens: 7 } }]);
		expect(await titleAfterFirstAnswer(services, id)).toBe(true);
		const after = (await getSession(db, id))!;
		expect(after).toMatchObject({ title: 'A weekend in Lisbon', title_source: 'message', titled_by: { model: 'mock-model', usage: { input_tokens: 61, output_tokens: 7 } } });
		expect({ ...after, title: before.title, titled_by: undefined }).toEqual({ ...before, titled_by: undefined });
		// One request, of the first message and answer only, and nothing of it in the conversation's requests.
		expect(mock.requests).toEqual([]);
		expect(mock.titleRequests).toHaveLength(1);
		const body = mock.titleRequests[0].body as { model: string; max_tokens: number; messages: { role: string; content: string }[] };
		expect(body.model).toBe('mock-model');
		expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
		expect(body.messages[1].content).toBe('First message:\nHow do I plan a weekend in Lisbon?\n\nFirst answer:\nStart in Alfama, then take tram 28.');
		expect(heard).not.toHaveBeenCalled();
	});

	it('is written by the Compaction model when Settings names one', async () => {
		await settings.set('compaction.model', `small\u0000mock-small`);
		const id = await firstAnswered();
		mock.scriptTitles([{ type: 'text', text: 'Lisbon weekend' }]);
		await titleAfterFirstAnswer(services, id);
		expect((mock.titleRequests[0].body as { model: string }).model).toBe('mock-small');
		expect((await getSession(db, id))?.titled_by?.model).toBe('mock-small');
	});

	it('is never asked for a session the user named, a session past its first answer, or a model that runs in the tab', async () => {
		const named = await firstAnswered();
		await renameSession(db, named, 'My trip');
		const later = await firstAnswered();
		await appendMessages(db, later, [{ ...complete, id: 'q2', role: 'user', content: 'And Porto?' }, { ...complete, id: 'a2', role: 'assistant', content: 'Take the train.' }]);
		const offline = await firstAnswered({ provider: OFFLINE_PROVIDER_ID, model: OFFLINE_MODEL });
		for (const id of [named, later, offline]) expect(await titleAfterFirstAnswer(services, id)).toBe(false);
		expect((await getSession(db, named))?.title).toBe('My trip');
		// A Compaction model that runs in the tab writes none either.
		await settings.set('compaction.model', `${OFFLINE_PROVIDER_ID}\u0000${OFFLINE_MODEL}`);
		expect(await titleAfterFirstAnswer(services, await firstAnswered())).toBe(false);
		expect(mock.titleRequests).toEqual([]);
	});

	it('gives way to a rename made while the model writes it', async () => {
		const id = await firstAnswered();
		let release!: () => void;
		mock.scriptTitles([{ type: 'text', text: 'A weekend in Lisbon', waitFor: new Promise<void>((resolve) => (release = resolve)) }]);
		const titling = titleAfterFirstAnswer(services, id);
		await vi.waitFor(() => expect(mock.titleRequests).toHaveLength(1));
		await renameSession(db, id, 'Lisbon, my way');
		release();
		expect(await titling).toBe(false);
		expect(await getSession(db, id)).toMatchObject({ title: 'Lisbon, my way', title_source: 'user' });
		expect((await getSession(db, id))?.titled_by).toBeUndefined();
	});

	it('leaves the first line as the title when the request fails or the reply holds no title', async () => {
		const id = await firstAnswered();
		mock.scriptTitles([{ type: 'http_error', status: 401, body: { error: { message: 'bad key' } } }]);
		await expect(titleAfterFirstAnswer(services, id)).rejects.toThrow();
		mock.scriptTitles([{ type: 'text', text: '"…"' }]);
		expect(await titleAfterFirstAnswer(services, id)).toBe(false);
		expect(await getSession(db, id)).toMatchObject({ title: 'How do I plan a weekend in Lisbon?', title_source: 'message' });
	});

	it('is asked for in words the test provider knows as a title request', () => {
		expect(TITLE_INSTRUCTIONS.startsWith(TITLE_MARK)).toBe(true);
	});
});
