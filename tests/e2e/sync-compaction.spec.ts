// Two devices through a sync server agree on what the model receives: after a compaction on one,
// the other shows the summary with the messages folded and sends [summary, kept tail…]; after an
// Undo there, it sends the messages again; after an Edit of a user message on one, the other
// shows only the edited version and sends only the edited text. Each request is read where the
// model receives it: the mock provider's record of its body.
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, sendAndWait, sessionLinks, transcript, userMessages, waitForAnswer } from './helpers';
import { addCustomProvider } from './plugin-helpers';
import { chooseModel } from './provider-helpers';
import { createDatabase, secondDevice, startSync } from './sync-helpers';
import { useCouchServer, useMockProvider } from './test-servers';

const couch = useCouchServer();
const mock = useMockProvider();

const marker = (page: Page) => transcript(page).getByRole('region', { name: 'Context compacted' });

/** The messages of the chat request the mock received last (the system prompt left out), each as "role: start of its text". */
function lastRequestMessages(): string[] {
	const request = mock.requests.filter((entry) => entry.path.endsWith('/chat/completions')).at(-1);
	const messages = (request?.body?.messages ?? []) as { role: string; content: unknown }[];
	return messages
		.filter((message) => message.role !== 'system')
		.map((message) => {
			const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
			return `${message.role}: ${text.slice(0, 40)}`;
		});
}

/** Sends `text` to the mock model and waits for its answer. */
async function sendToMock(page: Page, text: string): Promise<void> {
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	await box.press('Enter');
	await expect(messageBody(userMessages(page).last())).toHaveText(text);
	await waitForAnswer(page);
}

/** A second device with the mock as its provider, syncing, the session of `title` open. */
async function phoneWithSession(browser: Parameters<typeof secondDevice>[0], database: string, title: string): Promise<{ phone: Page; mockLabel: string }> {
	const phone = await secondDevice(browser);
	const mockLabel = await addCustomProvider(phone, `${mock.url}/v1`, 'mock-model');
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText([title], { timeout: 20_000 });
	await sessionLinks(phone).first().click();
	return { phone, mockLabel };
}

test('a compaction on one device folds the messages on the other, which sends [summary, kept tail…]; an Undo there sends them all again', async ({ page, browser }) => {
	test.setTimeout(120_000);
	const database = await createDatabase(couch.url);
	await openApp(page);
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	await startSync(page, database);
	const { phone, mockLabel } = await phoneWithSession(browser, database, 'long 400 about lighthouses');
	await expect(userMessages(phone)).toHaveCount(2);

	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker(page)).toHaveCount(1);
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(0);

	// The phone shows the summary where the first exchange was, the rest folded under it.
	await expect(marker(phone)).toHaveCount(1, { timeout: 20_000 });
	await expect(userMessages(phone).filter({ hasText: 'lighthouses' })).toHaveCount(0);
	await expect(messageBody(userMessages(phone))).toHaveText(['long 400 about tides']);
	await expect(marker(phone).getByRole('button', { name: 'Show compacted messages' })).toBeVisible();

	// What the phone sends: the summary first, then the kept tail, then the new message.
	await chooseModel(phone, mockLabel);
	await sendToMock(phone, 'And the harbour?');
	await expect.poll(lastRequestMessages).toEqual([expect.stringMatching(/^user: .*/), 'user: long 400 about tides', expect.stringMatching(/^assistant: /), 'user: And the harbour?']);
	const [summary] = (mock.requests.filter((entry) => entry.path.endsWith('/chat/completions')).at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role !== 'system');
	expect(summary.content).toMatch(/Goal/);
	expect(summary.content).not.toBe('long 400 about lighthouses');

	// Undo on the laptop: the phone shows and sends the messages again, and no summary.
	await marker(page).getByRole('button', { name: 'Undo compaction' }).click();
	await expect(marker(page)).toContainText('Undone');
	await expect(userMessages(phone).filter({ hasText: 'lighthouses' })).toHaveCount(1, { timeout: 20_000 });
	await sendToMock(phone, 'And the lighthouse keeper?');
	await expect.poll(lastRequestMessages).toEqual([
		'user: long 400 about lighthouses',
		expect.stringMatching(/^assistant: /),
		'user: long 400 about tides',
		expect.stringMatching(/^assistant: /),
		'user: And the harbour?',
		'assistant: Mock answer to: And the harbour?',
		'user: And the lighthouse keeper?'
	]);
	await phone.context().close();
});

test('an Edit of a user message on one device shows only the edited version on the other, which sends only the edited text', async ({ page, browser }) => {
	test.setTimeout(120_000);
	const database = await createDatabase(couch.url);
	await openApp(page);
	await sendAndWait(page, 'echo: first question');
	await sendAndWait(page, 'echo: second question');
	await startSync(page, database);
	const { phone, mockLabel } = await phoneWithSession(browser, database, 'echo: first question');
	await expect(messageBody(userMessages(phone))).toHaveText(['echo: first question', 'echo: second question']);

	await userMessages(page).last().getByRole('button', { name: 'Edit' }).click();
	const editor = page.getByRole('textbox', { name: 'Edited message' });
	await editor.fill('echo: second question, put better');
	await editor.press('Enter');
	await waitForAnswer(page);
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first question', 'echo: second question, put better']);

	await expect(messageBody(userMessages(phone))).toHaveText(['echo: first question', 'echo: second question, put better'], { timeout: 20_000 });
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(['echo: first question', 'first question', 'echo: second question, put better', 'second question, put better']);
	await expect(userMessages(phone).last().getByLabel('Version 2 of 2', { exact: true })).toBeVisible();

	await chooseModel(phone, mockLabel);
	await sendToMock(phone, 'Anything else?');
	await expect.poll(lastRequestMessages).toEqual([
		'user: echo: first question',
		'assistant: first question',
		'user: echo: second question, put better',
		'assistant: second question, put better',
		'user: Anything else?'
	]);
	await phone.context().close();
});
