import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { readAllSettings } from '../../db/settings-verbs';
import type { ProviderConfig } from '../../providers/types';
import { SettingsState } from './settings.svelte';

let db: PalimpsestDb;
let settings: SettingsState;
beforeEach(async () => {
	db = openProfileDb(`settings-${crypto.randomUUID()}`);
	await db.open();
	settings = new SettingsState(db);
});
afterEach(() => db.close());

describe('SettingsState.update', () => {
	it('stores keys that belong together in one write and reports Saved', async () => {
		const writing = settings.update({ default_provider: 'p1', default_model: 'm1' });
		expect(settings.get('default_model')).toBe('m1');
		expect(settings.save.state).toBe('saving');
		expect(await writing).toBe(true);
		expect(settings.save.state).toBe('saved');
		expect(await readAllSettings(db)).toMatchObject({ default_provider: 'p1', default_model: 'm1' });
	});

	it('stays Saving until the last of several overlapping writes lands', async () => {
		const first = settings.set('theme', 'dark');
		const second = settings.set('system_prompt', 'Be brief.');
		await first;
		expect(settings.save.state).toBe('saving');
		await second;
		expect(settings.save.state).toBe('saved');
	});

	it('a write that fails says why, puts back what was shown, and loses nothing stored', async () => {
		await settings.set('theme', 'light');
		db.close({ disableAutoOpen: true });
		expect(await settings.set('theme', 'dark')).toBe(false);
		expect(settings.get('theme')).toBe('light');
		expect(settings.save).toMatchObject({ state: 'failed', error: expect.stringMatching(/closed/i) });
		await db.open();
		expect(await readAllSettings(db)).toMatchObject({ theme: 'light' });
	});

	it('removing the default provider puts the default back on the offline model, in the same write', async () => {
		const provider: ProviderConfig = { id: 'p1', preset: 'ollama', label: 'Ollama', base_url: 'http://localhost:11434/v1', model: 'llama3.2', api_key: '' };
		await settings.update({ providers: [provider], default_provider: 'p1', default_model: 'llama3.2' });
		expect(await settings.removeProvider('p1')).toBe(true);
		expect(await readAllSettings(db)).toMatchObject({ providers: [], default_provider: 'offline', default_model: 'offline-mini' });
	});
});
