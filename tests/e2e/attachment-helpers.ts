// Steps of the attachment tests: the chips of the Message box, the Attach button's file
// picker, and a send that waits until the message is in the transcript.
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
