import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { ProviderForm } from './provider-form.svelte';
import { SettingsState } from '../settings/settings.svelte';

let db: PalimpsestDb;
let settings: SettingsState;
beforeEach(async () => {
	db = openProfileDb(`provider-form-${crypto.randomUUID()}`);
	await db.open();
	settings = new SettingsState(db);
});
afterEach(() => db.close());

/** Fills the form for an OpenAI-compatible server and saves it. */
async function saveCustom(form: ProviderForm, model: string, options?: { asDefault?: boolean }) {
	form.reset();
	form.choosePreset('custom');
	form.baseUrl = 'http://127.0.0.1:4010/v1';
	form.model = model;
	return form.save(options);
}

const defaultChoice = () => [settings.get('default_provider'), settings.get('default_model')];

describe('saving a provider', () => {
	it('makes the first one the default model; a later one is only added', async () => {
		const form = new ProviderForm(settings);
		expect(defaultChoice()).toEqual(['offline', 'offline-mini']);
		const first = await saveCustom(form, 'mock-model');
		expect(first).toMatchObject({ model: 'mock-model', isDefault: true });
		expect(defaultChoice()).toEqual([first!.provider, 'mock-model']);

		const second = await saveCustom(form, 'mock-large');
		expect(second).toMatchObject({ model: 'mock-large', isDefault: false });
		expect(defaultChoice()).toEqual([first!.provider, 'mock-model']);
		expect(settings.get('providers')).toHaveLength(2);
	});

	it('makes one added to connect a model the default, even when others were saved before', async () => {
		const form = new ProviderForm(settings);
		await saveCustom(form, 'mock-model');
		const connected = await saveCustom(form, 'mock-large', { asDefault: true });
		expect(connected).toMatchObject({ isDefault: true });
		expect(defaultChoice()).toEqual([connected!.provider, 'mock-large']);
	});

	it('keeps the default on an edited provider, with its new model; another edited one stays as it was', async () => {
		const form = new ProviderForm(settings);
		const first = await saveCustom(form, 'mock-model');
		const second = await saveCustom(form, 'mock-large');
		form.edit(settings.get('providers').find((p) => p.id === second!.provider)!);
		form.model = 'mock-small';
		expect(await form.save()).toMatchObject({ isDefault: false });
		expect(defaultChoice()).toEqual([first!.provider, 'mock-model']);

		form.edit(settings.get('providers').find((p) => p.id === first!.provider)!);
		form.model = 'mock-renamed';
		expect(await form.save()).toMatchObject({ provider: first!.provider, isDefault: true });
		expect(defaultChoice()).toEqual([first!.provider, 'mock-renamed']);
	});

	it('saves nothing, and changes no default, when the form is not complete', async () => {
		const form = new ProviderForm(settings);
		form.choosePreset('custom');
		form.baseUrl = 'not a url';
		expect(await form.save()).toBeNull();
		expect(settings.get('providers')).toEqual([]);
		expect(defaultChoice()).toEqual(['offline', 'offline-mini']);
	});
});
