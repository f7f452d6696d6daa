// Assistants through a real sync server: an assistant saved on one device is on the others, edits
// made on two devices merge, a deletion reaches every device and leaves nothing of the assistant on
// the server, the server learns nothing from an id (nor anything, with a sync passphrase), and an
// assistant the server changed into one that cannot be is refused.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { deleteAssistant, listAssistants, saveAssistant, type AssistantFields } from '../db/assistant-verbs';
import { useCouchDatabases } from './test-couch';

const { newDatabase } = useCouchDatabases('assistants');

type Doc = Record<string, unknown> & { _id: string; _rev: string };

async function serverDocs(url: string): Promise<Doc[]> {
	const listed = (await (await fetch(`${url}/_all_docs?include_docs=true`)).json()) as { rows: { doc: Doc }[] };
	return listed.rows.map((row) => row.doc).filter((doc) => doc._id.startsWith('assistant:'));
}

const reviewer: AssistantFields = { name: 'Reviewer', provider: '', model: '', starters: ['Review this'], chat_settings: { system_prompt: 'Review code.', temperature: 0.2 } };
const shown = async (device: Device) => (await listAssistants(device.db)).map(({ name, chat_settings, starters }) => ({ name, chat_settings, starters }));

describe('assistants through sync', () => {
	it('reach every device; edits made on two devices merge; a deletion reaches every device and the server keeps no word of it', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const saved = await saveAssistant(laptop.db, reviewer, undefined, laptop.now());
		await quiesce([laptop, phone]);
		expect(await shown(phone)).toEqual([{ name: 'Reviewer', chat_settings: { system_prompt: 'Review code.', temperature: 0.2 }, starters: ['Review this'] }]);
		const [doc] = await serverDocs(url);
		expect(doc._id).toBe(`assistant:${saved.id}`);

		// The laptop renames it while the phone changes its settings.
		await saveAssistant(laptop.db, { ...reviewer, name: 'Strict reviewer' }, saved.id, laptop.now());
		await saveAssistant(phone.db, { ...reviewer, chat_settings: { system_prompt: 'Review code strictly.' } }, saved.id, phone.now());
		await quiesce([laptop, phone]);
		for (const device of [laptop, phone]) expect(await shown(device)).toEqual([{ name: 'Strict reviewer', chat_settings: { system_prompt: 'Review code strictly.' }, starters: ['Review this'] }]);

		// Deleted on the phone while the laptop edits it: it is gone on both.
		await deleteAssistant(phone.db, saved.id);
		await saveAssistant(laptop.db, { ...reviewer, name: 'Edited after all' }, saved.id, laptop.now());
		await quiesce([laptop, phone]);
		for (const device of [laptop, phone]) expect(await shown(device)).toEqual([]);
		const [tombstone] = await serverDocs(url);
		expect(tombstone).toMatchObject({ deleted_at: expect.any(Number) });
		expect(JSON.stringify(tombstone)).not.toMatch(/Review|Edited/);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('with a sync passphrase, the server holds nothing an assistant says', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const passphrase = 'correct horse battery staple';
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase }), new Device(url, 'phone', { passphrase })];
		await saveAssistant(laptop.db, { ...reviewer, name: 'Secret keeper' }, undefined, laptop.now());
		await quiesce([laptop, phone]);
		expect((await shown(phone)).map((a) => a.name)).toEqual(['Secret keeper']);
		const docs = await serverDocs(url);
		expect(docs).toHaveLength(1);
		expect(Object.keys(docs[0]).sort()).toEqual(['_id', '_rev', 'sealed']);
		expect(JSON.stringify(docs)).not.toMatch(/Secret|Review/);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('an assistant the server changed into one no device may keep is refused there and counted; the device keeps its own', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		await saveAssistant(laptop.db, reviewer, undefined, laptop.now());
		await quiesce([laptop, phone]);
		const [doc] = await serverDocs(url);
		const changed = { ...doc, fields: { ...(doc.fields as object), chat_settings: { temperature: 99 } } };
		expect((await fetch(`${url}/${encodeURIComponent(doc._id)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(changed) })).status).toBe(201);
		const outcome = await phone.sync();
		expect(outcome.skipped).toEqual([expect.objectContaining({ id: doc._id, reason: expect.stringContaining('fields.chat_settings') })]);
		expect((await shown(phone))[0].chat_settings).toEqual({ system_prompt: 'Review code.', temperature: 0.2 });
		await Promise.all([laptop, phone].map((device) => device.close()));
	});
});
