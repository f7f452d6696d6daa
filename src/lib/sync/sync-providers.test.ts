// A session continued on another device: its provider is matched there by server and model, never
// by key or id; where that device has no provider for the server, its row says what the provider
// was (name, server, kind) so the chat can name it; and a model chosen elsewhere, the built-in one
// included, is what every device then uses.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { setSessionModel } from '../sessions/edit-session';
import { createSession } from '../sessions/session-lifecycle';
import type { LocalProvider } from './dexie-context';
import { useCouchDatabases } from './test-couch';

const { newDatabase } = useCouchDatabases('providers');

const SERVER = 'https://api.example.com/v1';
const LAPTOP: LocalProvider[] = [{ id: 'laptop-provider', preset: 'openai_chat', base_url: SERVER, name: 'Work', model: 'gpt-x' }];

function device(url: string, name: string, providers: LocalProvider[]): Device {
	return new Device(url, name, { store: { providers: () => providers } });
}

async function laptopSession(laptop: Device): Promise<string> {
	const named = { id: 'laptop-provider', name: 'Work', base_url: SERVER, preset: 'openai_chat' };
	return (await createSession(laptop.ctx, { provider: 'laptop-provider', model: 'gpt-x', named_provider: named })).id;
}

describe("a session's provider on another device", () => {
	it('is the provider there at the same server whose model is the session’s, the model kept', async () => {
		const url = await newDatabase();
		const laptop = device(url, 'laptop', LAPTOP);
		const phone = device(url, 'phone', [
			{ id: 'phone-other-model', preset: 'custom', base_url: 'https://API.example.com/v1/', name: 'Mine', model: 'gpt-small' },
			{ id: 'phone-same-model', preset: 'custom', base_url: SERVER, name: 'Mine too', model: 'gpt-x' },
			{ id: 'phone-elsewhere', preset: 'openai_chat', base_url: 'https://other.example.com/v1', name: 'Other', model: 'gpt-x' }
		]);
		const id = await laptopSession(laptop);
		await quiesce([laptop, phone]);
		expect(await phone.db.sessions.get(id)).toMatchObject({ provider: 'phone-same-model', model: 'gpt-x' });
		// Nothing the phone did changes the provider the laptop sees.
		await phone.rename(id, 'Renamed on the phone');
		await quiesce([laptop, phone]);
		expect(await laptop.db.sessions.get(id)).toMatchObject({ title: 'Renamed on the phone', provider: 'laptop-provider', model: 'gpt-x' });
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('where the device has none at that server, the row names the provider, its server and kind (never its key), and the model', async () => {
		const url = await newDatabase();
		const laptop = device(url, 'laptop', LAPTOP);
		const phone = device(url, 'phone', []);
		const id = await laptopSession(laptop);
		await quiesce([laptop, phone]);
		const row = await phone.db.sessions.get(id);
		expect(row).toMatchObject({ model: 'gpt-x', named_provider: { id: row!.provider, name: 'Work', base_url: SERVER, preset: 'openai_chat' } });
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('a switch to the built-in model on one device is the built-in model on the other, not the provider it left', async () => {
		const url = await newDatabase();
		const laptop = device(url, 'laptop', LAPTOP);
		const phone = device(url, 'phone', [{ id: 'phone-provider', preset: 'custom', base_url: SERVER, name: 'Mine', model: 'gpt-x' }]);
		const id = await laptopSession(laptop);
		await quiesce([laptop, phone]);
		await setSessionModel(phone.ctx, id, 'offline', 'offline-mini');
		await quiesce([laptop, phone]);
		expect(await laptop.db.sessions.get(id)).toMatchObject({ provider: 'offline', model: 'offline-mini' });
		await Promise.all([laptop.close(), phone.close()]);
	});
});
