// A tool server that asks for sign-in (OAuth: authorization code with PKCE, the app registered
// dynamically): Sign in in a window of its own, the server's tools used with the tokens, an
// expired access token refreshed without the user, Sign out; and the tokens reach that server
// only, never an export, the model, a plugin or the console.
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from './test-base';
import { expectNeverSentToModel, messageBody, openApp, sendMessage, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate, readRows, runCommand } from './plugin-helpers';
import { useMockProvider, usePluginOrigins, useSignInToolServer } from './test-servers';

const mock = useMockProvider();
const server = useSignInToolServer();
const origins = usePluginOrigins();

const SERVER_NAME = 'sign-in-test-server';

interface Stats {
	issued: number;
	refreshed: number;
	live: number;
}

/** What the authorization server issued: tokens, tokens by refresh, access tokens not yet expired. */
async function stats(): Promise<Stats> {
	return (await fetch(`${server.authUrl}/test/stats`)).json();
}

/** Adds the server in Settings; its row says it wants a sign-in. */
async function addServer(page: Page): Promise<Locator> {
	await navigate(page, 'Settings');
	await page.getByRole('textbox', { name: 'Tool server URL' }).fill(server.url);
	await page.getByRole('button', { name: 'Add tool server' }).click();
	// Named by its address until it answers initialize, by its own name after.
	const row = page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem').filter({ hasText: server.url });
	await expect(row).toContainText('The server wants you to sign in');
	return row;
}

/** Presses Sign in; the sign-in window opens, the server signs in at once, and the window closes. */
async function signIn(page: Page, row: Locator): Promise<void> {
	const opened = page.waitForEvent('popup');
	await row.getByRole('button', { name: 'Sign in' }).click();
	const popup = await opened;
	if (!popup.isClosed()) await popup.waitForEvent('close');
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
}

/** The stored tool servers, as IndexedDB holds them. */
async function storedServers(page: Page): Promise<Array<{ oauth?: { client?: unknown; tokens?: unknown } }>> {
	const rows = await readRows(page, 'palimpsest-default', 'settings');
	return (rows.find((row) => row.key === 'tool_servers')?.value as []) ?? [];
}

test('Sign in opens the server’s sign-in in a window; its tools work, the token is refreshed on its own, Sign out forgets it; no token leaves for anywhere else', async ({ page }) => {
	const logged: string[] = [];
	page.context().on('console', (message) => logged.push(message.text()));
	page.on('worker', (worker) => worker.on('console', (message) => logged.push(message.text())));
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addPlugin(page, `${origins.cors}/tool-watch.js`, 'Tool watch');
	const row = await addServer(page);
	await expect(row.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

	await signIn(page, row);
	await expect(row).toHaveAccessibleName(SERVER_NAME);
	await expect(row.getByRole('list', { name: `Tools of ${SERVER_NAME}` }).getByRole('listitem', { name: 'add', exact: true })).toBeVisible();
	await expect(row.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
	await expect(row).not.toContainText('SENTINEL');
	await expect.poll(async () => JSON.stringify((await storedServers(page))[0]?.oauth?.tokens)).toContain('SENTINEL-refresh-');
	const [stored] = await storedServers(page);

	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await sendMessage(page, 'What tools do you have?');
	await waitForAnswer(page);
	const tools: Array<{ function: { name: string } }> = mock.requests.at(-1)!.body.tools ?? [];
	const name = tools.map((t) => t.function.name).find((n) => n.endsWith('add'))!;
	expect(name, `a tool named after add among ${tools.map((t) => t.function.name).join(', ')}`).toBeTruthy();

	mock.script([{ type: 'tool_call', name, arguments: { a: 2, b: 3 } }, { type: 'text', text: 'Five.' }]);
	await sendMessage(page, 'Add 2 and 3.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Always allow' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('Five.');
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last()).toContainText('The sum of 2 and 3 is 5.');

	// Once the access token has expired, the next call refreshes it without asking the user.
	const before = await stats();
	await expect.poll(async () => (await stats()).live, { timeout: 10_000 }).toBe(0);
	mock.script([{ type: 'tool_call', name, arguments: { a: 4, b: 5 } }, { type: 'text', text: 'Nine.' }]);
	await sendMessage(page, 'Add 4 and 5.');
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Nine.');
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last()).toContainText('The sum of 4 and 5 is 9.');
	expect((await stats()).refreshed).toBeGreaterThan(before.refreshed);
	// The refreshed tokens were kept: the refresh token used before is spent (the server rotates them).
	await expect.poll(async () => JSON.stringify((await storedServers(page))[0].oauth?.tokens)).not.toBe(JSON.stringify(stored.oauth?.tokens));

	// Nothing the model was sent, nor its view, carries a token.
	await expectNeverSentToModel(page, answer, mock.requests, 'SENTINEL');
	// Plugins heard of both calls, with the server's name only.
	const seen = await runCommand(page, '/tool-calls');
	await expect(seen).toContainText(`post ${name} from ${SERVER_NAME}`);
	await expect(seen).not.toContainText('SENTINEL');

	// After a reload it connects with the stored (refreshed) sign-in.
	await page.reload();
	await navigate(page, 'Settings');
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export', exact: true }).click();
	expect(await readFile(await (await download).path(), 'utf8')).not.toContain('SENTINEL');

	await row.getByRole('button', { name: 'Sign out' }).click();
	await expect(row.getByRole('button', { name: 'Sign in' })).toBeVisible();
	await expect(row).toContainText('The server wants you to sign in');
	await expect(row.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
	await expect.poll(async () => (await storedServers(page))[0].oauth?.tokens).toBeUndefined();
	expect(logged.join('\n')).not.toContain('SENTINEL');
});

test('a sign-in the server no longer renews asks to be signed in again, and signing in again connects', async ({ page }) => {
	await openApp(page);
	const row = await addServer(page);
	await signIn(page, row);
	await fetch(`${server.authUrl}/test/forget-refresh-tokens`, { method: 'POST' });
	await expect.poll(async () => (await stats()).live, { timeout: 10_000 }).toBe(0);
	await row.getByRole('button', { name: 'Reconnect' }).click();
	await expect(row).toContainText('Your sign-in to this server has ended and could not be renewed: sign in again.');
	await signIn(page, row);
	await expect(row.getByRole('list', { name: `Tools of ${SERVER_NAME}` })).toBeVisible();
});

test('a blocked sign-in window is said so on the row', async ({ page }) => {
	// What a pop-up blocker does: window.open gives nothing.
	await page.addInitScript(() => {
		window.open = () => null;
	});
	await openApp(page);
	const row = await addServer(page);
	await row.getByRole('button', { name: 'Sign in' }).click();
	await expect(row.getByRole('alert').filter({ hasText: 'The sign-in window was blocked' })).toContainText('allow pop-ups for this page');
	await expect(row.getByRole('button', { name: 'Sign in' })).toBeEnabled();
});
