// Saved prompts through a real sync server: a prompt saved on one device is on the others, edits
// made on two devices merge, a deletion reaches every device and leaves nothing of the prompt on
// the server, the server learns no name from an id (nor anything, with a sync passphrase), and a
// prompt the server changed into one that cannot be is refused.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { deletePrompt, listPrompts, savePrompt } from '../db/prompt-verbs';
import { useCouchDatabases } from './test-couch';

const { newDatabase } = useCouchDatabases('prompts');

type Doc = Record<string, unknown> & { _id: string; _rev: string };

async function serverDocs(url: string): Promise<Doc[]> {
	const listed = (await (await fetch(`${url}/_all_docs?include_docs=true`)).json()) as { rows: { doc: Doc }[] };
	return listed.rows.map((row) => row.doc).filter((doc) => doc._id.startsWith('prompt:'));
}

const shown = async (device: Device) => (await listPrompts(device.db)).map(({ name, text }) => ({ name, text }));

describe('saved prompts through sync', () => {
	it('reach every device; edits made on two devices merge; a deletion reaches every device and the server keeps no word of it', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const saved = await savePrompt(laptop.db, { name: 'translate', text: 'Translate {{text}} into {{language}}.' }, laptop.now());
		await quiesce([laptop, phone]);
		expect(await shown(phone)).toEqual([{ name: 'translate', text: 'Translate {{text}} into {{language}}.' }]);
		// The id says nothing of the prompt.
		const [doc] = await serverDocs(url);
		expect(doc._id).toBe(`prompt:${saved.id}`);
		expect(doc._id).not.toContain('translate');

		// The laptop renames it while the phone changes its text.
		await savePrompt(laptop.db, { id: saved.id, name: 'to-english', text: 'Translate {{text}} into {{language}}.' }, laptop.now());
		await savePrompt(phone.db, { id: saved.id, name: 'translate', text: 'Into English: {{text}}' }, phone.now());
		await quiesce([laptop, phone]);
		for (const device of [laptop, phone]) expect(await shown(device)).toEqual([{ name: 'to-english', text: 'Into English: {{text}}' }]);

		// Deleted on the phone while the laptop edits it: it is gone on both.
		await deletePrompt(phone.db, saved.id);
		await savePrompt(laptop.db, { id: saved.id, name: 'to-english', text: 'Edited after all' }, laptop.now());
		await quiesce([laptop, phone]);
		for (const device of [laptop, phone]) expect(await shown(device)).toEqual([]);
		const [tombstone] = await serverDocs(url);
		expect(tombstone).toMatchObject({ deleted_at: expect.any(Number) });
		expect(JSON.stringify(tombstone)).not.toMatch(/to-english|Edited|English/);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('with a sync passphrase, the server holds no name or text of a prompt', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const passphrase = 'correct horse battery staple';
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase }), new Device(url, 'phone', { passphrase })];
		await savePrompt(laptop.db, { name: 'secret-recipe', text: 'Grandmother’s {{dish}}' }, laptop.now());
		await quiesce([laptop, phone]);
		expect(await shown(phone)).toEqual([{ name: 'secret-recipe', text: 'Grandmother’s {{dish}}' }]);
		const docs = await serverDocs(url);
		expect(docs).toHaveLength(1);
		expect(Object.keys(docs[0]).sort()).toEqual(['_id', '_rev', 'sealed']);
		expect(JSON.stringify(docs)).not.toMatch(/secret-recipe|Grandmother|dish/);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('a prompt the server changed into one no device may keep is refused there and counted; the device keeps its own', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		await savePrompt(laptop.db, { name: 'brief', text: 'Be brief.' }, laptop.now());
		await quiesce([laptop, phone]);
		const [doc] = await serverDocs(url);
		const changed = { ...doc, fields: { name: 'help', text: 'Taken over' } };
		expect((await fetch(`${url}/${encodeURIComponent(doc._id)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(changed) })).status).toBe(201);
		const outcome = await phone.sync();
		expect(outcome.skipped).toEqual([expect.objectContaining({ id: doc._id, reason: expect.stringContaining('fields.name') })]);
		expect(await shown(phone)).toEqual([{ name: 'brief', text: 'Be brief.' }]);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});
});
