import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { getSession } from '../db/session-verbs';
import { HookBus } from '../hooks/hook-bus';
import { createSession } from '../sessions/session-lifecycle';
import type { ProviderConfig } from '../providers/types';
import { createServices, type Services } from './services';
import { SettingsState } from './settings.svelte';

const PROVIDER: ProviderConfig = { id: 'b4a0c1e2-5f7d-4c39-9a51-0d2e8f6a7b13', preset: 'custom', label: 'Custom (OpenAI-compatible)', base_url: 'http://127.0.0.1:9/v1', api_key: '', model: 'mock-model', name: 'Work server' };

let db: PalimpsestDb;
let settings: SettingsState;
let services: Services;
beforeEach(async () => {
	db = openProfileDb(`services-${crypto.randomUUID()}`);
	await db.open();
	settings = new SettingsState(db);
	const profile = { name: 'default', user_id: 'u', user_name: 'Tester', created_at: 0 };
	services = createServices({ db, profile, hooks: new HookBus(), settings });
});
afterEach(() => db.close());

describe("a session's provider, by name", () => {
	it('is recorded as the provider is called now, at the next turn after a rename', async () => {
		await settings.set('providers', [PROVIDER]);
		const session = await createSession(services.sessionContext(), { provider: PROVIDER.id, model: 'mock-model', named_provider: services.namedProvider(PROVIDER.id) });
		expect(session.named_provider).toEqual({ id: PROVIDER.id, name: 'Work server' });
		await settings.set('providers', [{ ...PROVIDER, name: 'Office' }]);
		await services.turnDeps(session.id);
		expect((await getSession(db, session.id))?.named_provider).toEqual({ id: PROVIDER.id, name: 'Office' });
	});

	it('names a provider that is gone in the error a turn meets, never by its id', async () => {
		const session = await createSession(services.sessionContext(), { provider: PROVIDER.id, model: 'mock-model', named_provider: { id: PROVIDER.id, name: 'Work server' } });
		await expect(services.turnDeps(session.id)).rejects.toThrow('mock-model from Work server is not set up in this browser: choose another model to go on.');
		await expect(services.compactionDeps(session.id)).rejects.toThrow('mock-model from Work server is not set up in this browser');
	});

	it('has no name for the offline model, which is always there', () => {
		expect(services.namedProvider('offline')).toBeUndefined();
	});
});
