// The attachments of a message being written: each read or refused with its reason, at most
// ten kept, taken whole when the message is sent (images left out when the model cannot see)
// and put back when it could not be stored.
import { describe, expect, it } from 'vitest';
import { DraftAttachments } from './draft-attachments.svelte';

const text = (name: string, body = name) => new File([body], name, { type: 'text/plain' });

describe('the attachments of a draft', () => {
	it('keeps ten; the eleventh and a file that is not text or an image are refused, saying why', async () => {
		const drafts = new DraftAttachments();
		await drafts.add('s', [new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'a.zip', { type: 'application/zip' }), ...Array.from({ length: 11 }, (_, i) => text(`part-${i + 1}.txt`))]);
		const items = drafts.list('s');
		expect(items.filter((item) => item.state === 'ready')).toHaveLength(10);
		expect(items.find((item) => item.name === 'part-11.txt')).toMatchObject({ state: 'refused', reason: 'A message takes at most 10 attachments.' });
		expect(items.find((item) => item.name === 'a.zip')?.reason).toMatch(/^Only images/);
		expect(drafts.status('s')).toEqual({ ready: 10, reading: false, images: 0 });
		// Removing one makes room again.
		drafts.remove('s', items[1].key);
		await drafts.add('s', [text('again.txt')]);
		expect(drafts.list('s').find((item) => item.name === 'again.txt')?.state).toBe('ready');
	});

	it('hands over what is ready with its bytes, keeps drafts of other sessions apart, and puts everything back on restore', async () => {
		const drafts = new DraftAttachments();
		await drafts.add('s', [text('a.txt', 'alpha'), new File(['x'], 'b.bin', { type: 'application/octet-stream' })]);
		await drafts.add('other', [text('c.txt')]);
		const { sent, taken } = drafts.take('s');
		expect(sent.refs).toEqual([{ type: 'file', id: expect.any(String), name: 'a.txt', mimeType: 'text/plain', size: 5 }]);
		expect(await sent.blobs[0].data.text()).toBe('alpha');
		expect(sent.blobs[0].id).toBe(sent.refs[0].id);
		expect(drafts.list('s')).toEqual([]);
		expect(drafts.list('other')).toHaveLength(1);
		drafts.restore('s', taken);
		expect(drafts.list('s').map((item) => item.name)).toEqual(['a.txt', 'b.bin']);
	});

	it('names a file without its control characters: a right-to-left override cannot disguise its extension', async () => {
		const drafts = new DraftAttachments();
		await drafts.add('s', [text('report\u202Etxt.md')]);
		expect(drafts.list('s')[0]).toMatchObject({ state: 'ready', name: 'reporttxt.md', attachment: { name: 'reporttxt.md' } });
	});
});
