// Session titles in a real browser: after the first answer a model names the session in the
// background (answered by the mock provider, which keeps title requests apart from the
// conversation's); a name the user gave, the built-in offline model and a failed request keep
// the title the first message gave; and a command alone begins no session.
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, sendAndWait, sessionAction, sessionLinks, sidebar, textChangesWithin, transcript } from './helpers';
import { addCustomProvider, commandOutputs, navigate, readRows, runCommand } from './plugin-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();
const QUESTION = 'How should I spend a weekend in Lisbon with two children?';

/** Adds a provider on the mock and chooses its model for the new chat. */
async function useMockModel(page: Page): Promise<void> {
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
}

const header = (page: Page) => page.getByRole('heading', { level: 1 });

test('after the first answer the model names the session in the background: the sidebar and the header show it, /usage says what it cost', async ({ page }) => {
	await openApp(page);
	await useMockModel(page);
	mock.scriptTitles([{ type: 'text', text: '**"Lisbon weekend with kids."**', usage: { input_tokens: 93, output_tokens: 8 } }]);
	await sendAndWait(page, QUESTION);
	await expect(sessionLinks(page)).toHaveText(['Lisbon weekend with kids']);
	await expect(header(page)).toHaveText('Lisbon weekend with kids');
	// One request for the title, of the first message and answer; the conversation had one of its own.
	expect(mock.titleRequests).toHaveLength(1);
	expect(JSON.stringify(mock.titleRequests[0].body)).toContain(QUESTION);
	expect(mock.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(1);
	await expect(messageBody(await runCommand(page, '/usage'))).toContainText('Title written by mock-model (a request of its own, not part of the conversation): 93 tokens in, 8 out');

	// The next answer asks for no other title.
	await sendAndWait(page, 'And on a rainy day?');
	expect(mock.titleRequests).toHaveLength(1);
	await page.reload();
	await expect(sessionLinks(page)).toHaveText(['Lisbon weekend with kids']);

	// Renamed by the user, the title is no longer the model's, and /usage no longer says it is.
	await sessionAction(page, sidebar(page).getByRole('listitem').first(), 'Rename');
	await sidebar(page).getByRole('textbox').fill('Our trip');
	await sidebar(page).getByRole('textbox').press('Enter');
	await expect(sessionLinks(page)).toHaveText(['Our trip']);
	await expect(messageBody(await runCommand(page, '/usage'))).not.toContainText('Title written by');
});

test('a session renamed while the model writes its title keeps the name the user gave', async ({ page }) => {
	await openApp(page);
	await useMockModel(page);
	let release!: () => void;
	mock.scriptTitles([{ type: 'text', text: 'Lisbon weekend', waitFor: new Promise<void>((resolve) => (release = resolve)) }]);
	await sendAndWait(page, QUESTION);
	await expect.poll(() => mock.titleRequests.length).toBe(1);
	await sessionAction(page, sidebar(page).getByRole('listitem').first(), 'Rename');
	const box = sidebar(page).getByRole('textbox');
	await box.fill('Our trip');
	await box.press('Enter');
	await expect(sessionLinks(page)).toHaveText(['Our trip']);
	const changes = textChangesWithin(sessionLinks(page).first(), 2000);
	release();
	expect(await changes).toEqual([]);
	await expect(header(page)).toHaveText('Our trip');
});

test('the title stays the first message’s when the title request fails', async ({ page }) => {
	await openApp(page);
	await useMockModel(page);
	// Not scripted: the mock refuses the title request (400).
	await sendAndWait(page, QUESTION);
	await expect.poll(() => mock.titleRequests.length).toBe(1);
	await expect(sessionLinks(page)).toHaveText([QUESTION]);
	expect(await textChangesWithin(sessionLinks(page).first(), 1500)).toEqual([]);
	await expect(messageBody(await runCommand(page, '/usage'))).not.toContainText('Title written by');
});

test('with the built-in offline model the title is the first message’s, and no title request is made', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'echo: Plans for the weekend');
	await expect(sessionLinks(page)).toHaveText(['echo: Plans for the weekend']);
	expect(await textChangesWithin(sessionLinks(page).first(), 1500)).toEqual([]);
	expect(mock.titleRequests).toEqual([]);
});

test('/help and other commands typed in a new chat answer there and begin no session; the first message does', async ({ page }) => {
	await openApp(page);
	await expect(await runCommand(page, '/help')).toContainText('/title <text> — Rename this session');
	await expect(messageBody(await runCommand(page, '/title Plans'))).toHaveText('There is no session here yet: /title works once your first message has begun one.');
	await expect(await runCommand(page, '/usage')).toContainText('Messages: 0 stored, 0 in context');
	await expect(commandOutputs(page)).toHaveCount(3);
	await expect(page).toHaveURL(/\/$/);
	await expect(sessionLinks(page)).toHaveCount(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'sessions')).toEqual([]);
	// Nothing of them was kept: a new chat opened again starts empty.
	await navigate(page, 'Settings');
	await navigate(page, 'Chat');
	await expect(commandOutputs(page)).toHaveCount(0);

	await sendAndWait(page, 'echo: the first message');
	await expect(sessionLinks(page)).toHaveText(['echo: the first message']);
	await expect(transcript(page).getByRole('article')).toHaveCount(2);
});
