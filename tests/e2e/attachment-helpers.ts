// Steps of the attachment tests: the chips of the Message box, the Attach button's file
// picker, a send that waits until the message is in the transcript, and a real PNG to attach.
import { deflateSync } from 'node:zlib';
import { userMessages } from './helpers';
import { expect, type Locator, type Page } from './test-base';

export const chips = (page: Page) => page.getByRole('list', { name: 'Attachments' });
export const chip = (page: Page, name: string) => chips(page).getByRole('listitem').filter({ hasText: name });

/** Attaches files through the Attach button and its file picker. */
export async function attachByButton(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
	const chooser = page.waitForEvent('filechooser');
	await page.getByRole('button', { name: 'Attach', exact: true }).click();
	await (await chooser).setFiles(files);
}

/**
 * Types `text` and sends it with what is attached, at once (a file still being read goes with
 * the message); waits until the message is in the transcript.
 */
export async function send(page: Page, text: string): Promise<Locator> {
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	await box.press('Enter');
	const sent = userMessages(page).filter({ hasText: text });
	await expect(sent).toHaveCount(1);
	return sent;
}

/** A real PNG of `width` × `height` grey pixels of noise (so it does not compress away), which the browser decodes. */
export function png(width: number, height: number): Buffer {
	const crcTable = Array.from({ length: 256 }, (_, n) => {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		return c >>> 0;
	});
	const crc = (bytes: Buffer) => {
		let c = 0xffffffff;
		for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
		return (c ^ 0xffffffff) >>> 0;
	};
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
		const out = Buffer.alloc(body.length + 8);
		out.writeUInt32BE(data.length, 0);
		body.copy(out, 4);
		out.writeUInt32BE(crc(body), body.length + 4);
		return out;
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
	let seed = 7;
	const noise = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
	const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.from([0, ...Array.from({ length: width }, noise)])));
	return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
