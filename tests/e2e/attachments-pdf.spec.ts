// An attached PDF: its text read in the attachment worker when it is attached, sent as a
// document to Anthropic and OpenAI and as its text, under its name, to an OpenAI-compatible
// server; a PDF that cannot be read (a password, damage) is refused at its chip with the reason.
import { expect, test } from './test-base';
import { openApp, userMessages, waitForAnswer } from './helpers';
import { addCustomProvider } from './plugin-helpers';
import { addProvider, chooseModel } from './provider-helpers';
import { attachByButton, chip, send } from './attachment-helpers';
import { useMockProvider } from './test-servers';
import { makeTestPdf } from '../../src/lib/attachments/test-pdf';

const mock = useMockProvider();

const REPORT = { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makeTestPdf([['Quarterly report', 'Sales rose by 12 percent.'], ['Outlook: steady.']])) };
const REPORT_BASE64 = REPORT.buffer.toString('base64');

type Message = { role: string; content: unknown };

test('an attached PDF reaches Anthropic as a document block, and an OpenAI-compatible server as its text under its name', async ({ page }) => {
	await openApp(page);
	await chooseModel(page, await addProvider(page, 'Anthropic', mock.url, 'claude-opus-4-6'));
	await attachByButton(page, [REPORT]);
	// Read in the worker: the chip says its pages once its text is in.
	await expect(chip(page, 'report.pdf')).toContainText('2 pages');
	await send(page, 'Sum it up.');
	const answer = await waitForAnswer(page);
	const anthropic = mock.requests.at(-1)!.body.messages as Message[];
	expect(anthropic.at(-1)!.content).toEqual([
		{ type: 'text', text: 'Sum it up.' },
		{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: REPORT_BASE64 }, title: 'report.pdf' }
	]);

	// The transcript's chip names it with its pages, and opens to the text read from it.
	const sent = userMessages(page).filter({ hasText: 'Sum it up.' });
	await expect(sent.getByText('PDF, 2 pages,')).toBeVisible();
	await sent.getByText('report.pdf').click();
	await expect(sent.getByText('Sales rose by 12 percent.')).toBeVisible();

	// What the model received names it; its bytes are left out of the shown body.
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	await expect(received.getByRole('list', { name: 'Attached' })).toContainText(`Attached: report.pdf, application/pdf, 2 pages, ${REPORT.buffer.length} bytes`);
	await expect(received.getByLabel('Request body')).toContainText('of PDF data, left out here; Copy as curl has it');
	await expect(received.getByLabel('Request body')).not.toContainText(REPORT_BASE64.slice(0, 200));
	// Rebuilt from the stored PDF, it is the request that was sent.
	await expect(received.getByRole('note')).toHaveCount(0);
	await page.keyboard.press('Escape');

	// The same session, now with a server that reads no PDFs: the PDF goes as its text.
	await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'mock-model'));
	await send(page, 'And the outlook?');
	await waitForAnswer(page);
	const body = JSON.stringify(mock.requests.at(-1)!.body);
	expect(body).not.toContain(REPORT_BASE64.slice(0, 40));
	const first = (mock.requests.at(-1)!.body.messages as Message[]).find((m) => m.role === 'user')!;
	expect(first.content).toEqual([
		{ type: 'text', text: 'Sum it up.' },
		{ type: 'text', text: 'File: report.pdf\n\nQuarterly report\nSales rose by 12 percent.\n\nOutlook: steady.' }
	]);
});

test('an attached PDF reaches the OpenAI Responses API as an input_file with its name', async ({ page }) => {
	await openApp(page);
	await chooseModel(page, await addProvider(page, 'OpenAI', `${mock.url}/v1`, 'gpt-5.6'));
	await attachByButton(page, [REPORT]);
	await expect(chip(page, 'report.pdf')).toContainText('2 pages');
	await send(page, 'Sum it up.');
	await waitForAnswer(page);
	const input = mock.requests.at(-1)!.body.input as Array<{ role?: string; content: unknown }>;
	expect(input.findLast((item) => item.role === 'user')!.content).toEqual([
		{ type: 'input_text', text: 'Sum it up.' },
		{ type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${REPORT_BASE64}` }
	]);
});

test('a PDF protected by a password, a damaged one, one over 20 MB, or a file that only calls itself a PDF is refused at its chip with the reason', async ({ page }) => {
	await openApp(page);
	await attachByButton(page, [
		{ name: 'locked.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makeTestPdf([['Secret']], { encrypted: true })) },
		{ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog') },
		{ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html>not a pdf</html>') },
		{ name: 'huge.pdf', mimeType: '', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20 * 1024 * 1024)]) }
	]);
	await expect(chip(page, 'locked.pdf').getByRole('alert')).toHaveText('Not attached: “locked.pdf” is protected by a password. Remove the password and attach it again.');
	await expect(chip(page, 'broken.pdf').getByRole('alert')).toHaveText('Not attached: “broken.pdf” could not be read as a PDF; it may be damaged.');
	await expect(chip(page, 'fake.pdf').getByRole('alert')).toHaveText('Not attached: Not a PDF, whatever its name says.');
	// Known as a PDF by its extension alone; its limit is said at the chip.
	await expect(chip(page, 'huge.pdf').getByRole('alert')).toHaveText('Not attached: Too large: a PDF may be at most 20 MB.');
	await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
});
