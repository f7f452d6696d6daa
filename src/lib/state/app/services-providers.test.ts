import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { getSession } from '../../db/session-verbs';
import { HookBus } from '../../hooks/hook-bus';
import { createSession } from '../../sessions/session-lifecycle';
import type { ProviderConfig } from '../../providers/types';
import { adoptProvider } from '../providers/adopt-provider';
import { createServices, type Services } from './services';
import { SettingsState } from '../settings/settings.svelte';

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
		expect(session.named_provider).toEqual({ id: PROVIDER.id, name: 'Work server', base_url: 'http://127.0.0.1:9/v1', preset: 'custom' });
		await settings.set('providers', [{ ...PROVIDER, name: 'Office' }]);
		await services.turnDeps(session.id);
		expect((await getSession(db, session.id))?.named_provider).toEqual({ id: PROVIDER.id, name: 'Office', base_url: 'http://127.0.0.1:9/v1', preset: 'custom' });
	});

	it('names a provider that is gone in the error a turn meets, never by its id', async () => {
		const session = await createSession(services.sessionContext(), { provider: PROVIDER.id, model: 'mock-model', named_provider: { id: PROVIDER.id, name: 'Work server' } });
		await expect(services.turnDeps(session.id)).rejects.toThrow('mock-model from Work server is not set up in this browser: choose another model to go on.');
		await expect(services.compactionDeps(session.id)).rejects.toThrow('mock-model from Work server is not set up in this browser');
	});

	it('names a provider from another device that is not set up here by its name, never by its id', async () => {
		const session = await createSession(services.sessionContext(), { provider: PROVIDER.id, model: 'gpt-x', named_provider: { id: PROVIDER.id, name: 'Laptop', base_url: 'https://api.example.com/v1', preset: 'openai_chat' } });
		const error = 'gpt-x from Laptop is not set up in this browser: choose another model to go on.';
		await expect(services.turnDeps(session.id)).rejects.toThrow(error);
		await expect(services.turnDeps(session.id)).rejects.not.toThrow(PROVIDER.id);
	});

	it('a provider saved for the server of sessions whose provider is not set up here takes them over, each keeping its model', async () => {
		const elsewhere = (model: string, base_url: string) => ({ provider: 'id-on-another-device', model, named_provider: { id: 'id-on-another-device', name: 'Laptop', base_url, preset: 'custom' } });
		const ctx = services.sessionContext();
		const [same, slash, other, unnamed] = [
			await createSession(ctx, elsewhere('gpt-x', 'http://127.0.0.1:9/v1')),
			await createSession(ctx, elsewhere('gpt-y', 'HTTP://127.0.0.1:9/v1/')),
			await createSession(ctx, elsewhere('gpt-x', 'https://api.example.com/v1')),
			await createSession(ctx, { provider: 'id-on-another-device', model: 'gpt-x' })
		];
		await settings.set('providers', [PROVIDER]);
		expect((await adoptProvider(services, PROVIDER.id)).sort()).toEqual([same.id, slash.id].sort());
		expect(await getSession(db, same.id)).toMatchObject({ provider: PROVIDER.id, model: 'gpt-x', named_provider: { id: PROVIDER.id, name: 'Work server' } });
		expect(await getSession(db, slash.id)).toMatchObject({ provider: PROVIDER.id, model: 'gpt-y' });
		for (const untouched of [other, unnamed]) expect((await getSession(db, untouched.id))?.provider).toBe('id-on-another-device');
	});

	it('has no name for the offline model, which is always there', () => {
		expect(services.namedProvider('offline')).toBeUndefined();
	});
});
