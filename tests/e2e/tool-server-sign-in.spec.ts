// A tool server that asks for sign-in (OAuth: authorization code with PKCE, the app registered
// dynamically): Sign in in a window of its own, which has no opener and hands the sign-in back
// over the app's own channel; the server's tools used with the tokens, an expired access token
// refreshed without the user, Sign out; the tokens reach that server and the authorization
// server signed in with only, never another one the server names later, an export, the model, a
// plugin or the console.
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from './test-base';
import { expectNeverSentToModel, messageBody, openApp, sendMessage, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate, readRows, runCommand } from './plugin-helpers';
import { useMockProvider, usePluginOrigins, useSignInToolServer } from './test-servers';

const mock = useMockProvider();
const server = useSignInToolServer();
const origins = usePluginOrigins();

/** Every switch of the test server back to its start (see sign-in-tool-server.mjs). */
test.beforeEach(async () => {
	await switchServer('reset');
});

const SERVER_NAME = 'sign-in-test-server';

interface Stats {
	issued: number;
	refreshed: number;
	live: number;
	requests: number;
	foreignTokens: number;
	openers: { with: number; without: number };
}

/**
 * What an authorization server (the first, or the one the server may switch to) issued: tokens,
 * tokens by refresh, access tokens not yet expired; the requests it got, and those carrying a
 * token of the other; its sign-in pages that had an opener and those that had none.
 */
async function stats(authUrl = server.authUrl): Promise<Stats> {
	return (await fetch(`${authUrl}/test/stats`)).json();
}

/** Switches the test server (sign-in-tool-server.mjs lists the switches). */
async function switchServer(name: string, body: unknown = {}): Promise<void> {
	const response = await fetch(`${server.authUrl}/test/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	expect(response.ok, `POST /test/${name}`).toBe(true);
}

/** Presses Sign in; resolves with the sign-in window once it opened. */
async function pressSignIn(page: Page, row: Locator): Promise<Page> {
	const opened = page.waitForEvent('popup');
	await row.getByRole('button', { name: 'Sign in' }).click();
	return opened;
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
	const popup = await pressSignIn(page, row);
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

test('the sign-in window has no opener: a hostile sign-in page cannot send the app’s tab elsewhere', async ({ page }) => {
	await openApp(page);
	const row = await addServer(page);
	await switchServer('sign-in-page');
	const popup = await pressSignIn(page, row);
	// The server's page looked for the tab that opened it, to send it to a look-alike page.
	await expect.poll(async () => (await stats()).openers).toEqual({ with: 0, without: 1 });
	await popup.getByRole('button', { name: 'Allow' }).click();
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	await expect(page).toHaveURL(/\/settings$/);
});

test('the sign-in comes back over the app’s own channel, and a message with a state the app did not make is ignored', async ({ page }) => {
	await openApp(page);
	const row = await addServer(page);
	await switchServer('sign-in-page');
	// Listens as any page of the app's origin may, to see what the sign-in window hands back.
	await page.evaluate(() => {
		const heard: unknown[] = [];
		Object.assign(window, { heardOnChannel: heard });
		new BroadcastChannel('palimpsest-sign-in').onmessage = (event) => heard.push(event.data);
	});
	const popup = await pressSignIn(page, row);
	await expect(popup.getByRole('button', { name: 'Allow' })).toBeVisible();
	// Had this been taken, its code would have been refused by the server and the sign-in ended.
	await page.evaluate(() => new BroadcastChannel('palimpsest-sign-in').postMessage({ code: 'forged-code', state: 'a-state-the-app-did-not-make' }));
	await popup.getByRole('button', { name: 'Allow' }).click();
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	await expect(row.getByRole('alert')).toHaveCount(0);
	const handedBack = () =>
		page.evaluate(() =>
			(window as unknown as { heardOnChannel: Array<{ code?: unknown; state?: unknown; iss?: unknown }> }).heardOnChannel
				.filter((message) => typeof message.code === 'string' && message.code !== 'forged-code')
				.map((message) => ({ state: typeof message.state, iss: message.iss }))
		);
	await expect.poll(handedBack).toEqual([{ state: 'string', iss: `${server.authUrl}/` }]);
});

test('a sign-in that comes back from another authorization server than the one it went to (iss) is refused', async ({ page }) => {
	await openApp(page);
	const row = await addServer(page);
	const before = await stats();
	await switchServer('iss', { iss: 'https://other-issuer.example/' });
	await pressSignIn(page, row);
	const refused = row.getByRole('alert').filter({ hasText: 'The sign-in came back from another authorization server' });
	await expect(refused).toContainText('(https://other-issuer.example/)');
	await expect(refused).toContainText('was refused');
	await expect(row.getByRole('button', { name: 'Sign in' })).toBeEnabled();
	await expect(row.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
	// The code was never traded for tokens.
	expect((await stats()).issued).toBe(before.issued);
});

test('a server that later names another authorization server is refused: no token goes there, the row says so, and signing in again uses the new one', async ({ page }) => {
	await openApp(page);
	const row = await addServer(page);
	await signIn(page, row);
	await expect(row.getByRole('list', { name: `Tools of ${SERVER_NAME}` })).toBeVisible();
	// The tool server now takes only the other's tokens, and its 401s name resource metadata listing the other.
	await switchServer('switch-issuer');
	await row.getByRole('button', { name: 'Reconnect' }).click();
	await expect(row.getByRole('alert')).toContainText(`now sends its sign-in to another authorization server (${new URL(server.auth2Url).host})`);
	await expect(row.getByRole('button', { name: 'Sign in' })).toBeVisible();
	// Nothing went to the other one: not the refresh token, not even a request.
	expect(await stats(server.auth2Url)).toMatchObject({ requests: 0, foreignTokens: 0 });

	await signIn(page, row);
	await expect(row.getByRole('list', { name: `Tools of ${SERVER_NAME}` })).toBeVisible();
	expect(await stats(server.auth2Url)).toMatchObject({ issued: 1, foreignTokens: 0 });
});

test('a tool server over plain http is added only when it is on this computer', async ({ page }) => {
	// Nothing leaves for the other computer, whatever the app did with the address.
	await page.context().route(/^https?:\/\/tools\.example\.com\//, (route) => route.abort());
	await openApp(page);
	await navigate(page, 'Settings');
	const field = page.getByRole('textbox', { name: 'Tool server URL' });
	await field.fill('http://tools.example.com/mcp');
	await page.getByRole('button', { name: 'Add tool server' }).click();
	await expect(field).toHaveAccessibleDescription(/starts with https:\/\/.*this computer/);
	await expect(page.getByRole('list', { name: 'Tool servers' })).toHaveCount(0);
	await expect(field).toHaveValue('http://tools.example.com/mcp');
	await addServer(page);
});

test('a blocked sign-in window is said so on the row', async ({ page }) => {
	// What a pop-up blocker does: no window opens.
	await page.addInitScript(() => {
		window.open = () => null;
	});
	await openApp(page);
	const row = await addServer(page);
	await row.getByRole('button', { name: 'Sign in' }).click();
	await expect(row.getByRole('alert').filter({ hasText: 'No sign-in window opened' })).toContainText('allow pop-ups for this page');
	await expect(row.getByRole('button', { name: 'Sign in' })).toBeEnabled();
});

test('closing the sign-in window and pressing Sign in again starts over', async ({ page }) => {
	await openApp(page);
	const row = await addServer(page);
	await switchServer('sign-in-page');
	const first = await pressSignIn(page, row);
	await expect(first.getByRole('button', { name: 'Allow' })).toBeVisible();
	await first.close();
	const second = await pressSignIn(page, row);
	await second.getByRole('button', { name: 'Allow' }).click();
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	await expect(row.getByRole('alert')).toHaveCount(0);
});
