// The boundary between the page and a plugin holds against the plugin itself: one that looks
// for every channel in its worker and posts raw messages on all it finds changes nothing in the
// page and catches no API key (what the page does with raw messages that do reach it is tested
// over real ports in src/lib/plugins/sandbox/*.test.ts); one whose getters walk the stack finds
// none of its runtime's functions to post with; one that logs, posts or stores without end is throttled or refused while the page keeps
// answering; one that allocates without bound or spins in a timer is stopped, and
// its row says why.
import { expect, test, TIMING, type Locator, type Page } from './test-base';
import { messageBody, openApp, sendMessage, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate, pluginRow, readRows, rowStatus, runCommand } from './plugin-helpers';
import { watchLateness } from './lateness';
import { useMockProvider, usePluginOrigins } from './test-servers';

const API_KEY = 'sk-boundary-SECRET-7731';

const origins = usePluginOrigins();
const mock = useMockProvider({ reset: false });

/** The JSON a command printed, or null while it is not whole JSON. */
async function jsonIn(output: Locator): Promise<unknown> {
	try {
		return JSON.parse((await output.textContent()) ?? '');
	} catch {
		return null;
	}
}

/** What the page's own objects look like, for comparing before and after an attack. */
function pagePrototypes(page: Page) {
	return page.evaluate(() => {
		const probe: Record<string, unknown> = {};
		probe.authorization = 'plain';
		return {
			polluted: ({} as Record<string, unknown>).polluted ?? null,
			objectKeys: Object.getOwnPropertyNames(Object.prototype).sort(),
			authorizationSetter: Object.getOwnPropertyDescriptor(Object.prototype, 'authorization') !== undefined,
			ownAuthorization: Object.getOwnPropertyDescriptor(probe, 'authorization')?.value ?? null
		};
	});
}

test('a plugin posting raw messages on every channel it can find changes nothing in the page and never sees the API key', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model', API_KEY);
	await addPlugin(page, `${origins.cors}/keeper.js`, 'Secret keeper');
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/keep kept-by-keeper')).toContainText('kept kept-by-keeper');
	const keeperRows = async () => (await readRows(page, 'palimpsest-default', 'plugin_kv')).filter((row) => row.plugin_id === 'keeper');
	await expect.poll(keeperRows).not.toHaveLength(0);
	const keeperBefore = await keeperRows();
	const before = await pagePrototypes(page);

	const row = await addPlugin(page, `${origins.cors}/hostile.js`, 'Hostile plugin');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/attack')).toContainText(/posted \d+ messages/);
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await sendMessage(page, 'A request that carries the API key');
	await expect(messageBody(await waitForAnswer(page))).toContainText('Mock answer to:');
	// The key went where it belongs: to the provider, in its header.
	const chat = mock.requests.find((request) => request.path.endsWith('/chat/completions'));
	expect(chat?.headers.authorization).toBe(`Bearer ${API_KEY}`);

	expect(await pagePrototypes(page)).toEqual(before);
	expect(before).toEqual(expect.objectContaining({ polluted: null, authorizationSetter: false, ownAuthorization: 'plain' }));
	const caught = await runCommand(page, '/caught');
	// It did see what its hook was given: the watching worked, there was just nothing else to see.
	await expect(caught).toContainText('A request that carries the API key');
	await expect(caught).not.toContainText(API_KEY);
	await expect(caught).not.toContainText('calledBack');

	// Nothing it posted reached the page: no storage of any plugin changed, nothing was read.
	const stored = await readRows(page, 'palimpsest-default', 'plugin_kv');
	expect(stored.filter((entry) => entry.plugin_id === 'keeper')).toEqual(keeperBefore);
	expect(stored.filter((entry) => entry.plugin_id === 'hostile')).toEqual([]);
	await navigate(page, 'Plugins');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	expect(await pagePrototypes(page)).toEqual(before);
});

test('a plugin walking the stack from getters the runtime reads finds none of its functions, and reaches nothing in the page', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/stack-thief.js`, 'Stack thief');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	// Sloppy-mode getters (a classic script, as importScripts loads it) handed to every part of
	// ctx, and returned from a command: each walks the stack whenever the runtime reads or copies
	// it. The frame's policy now lets plugin code make no Trusted Types policy, so importScripts
	// refuses the script (next test); were one let through, its getters would still find nothing:
	// the built runtime is strict (src/vite/plugin-runtime-source.test.ts runs this same script on it).
	await runCommand(page, `/steal ${origins.cors}/stack-thief-classic.js`);
	await runCommand(page, '/baited');
	const report = messageBody(await runCommand(page, '/report'));
	await expect.poll(() => jsonIn(report)).toEqual(expect.objectContaining({ captured: [], called: 0, stored: null }));

	// Nothing it could have posted with a captured function reached the page.
	const stored = (await readRows(page, 'palimpsest-default', 'plugin_kv')).filter((entry) => entry.plugin_id === 'stack-thief');
	expect(stored.map((entry) => entry.key)).not.toContain('captured');
	await navigate(page, 'Plugins');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(row.getByRole('definition').filter({ hasText: 'messages from the plugin that the app does not accept' })).toHaveCount(0);
});

test('plugin code can make no Trusted Types policy, not even one of the names the page allows, so it loads no script itself', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/stack-thief.js`, 'Stack thief');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	const policies = messageBody(await runCommand(page, `/policies ${origins.cors}/stack-thief-classic.js`));
	// Its worker has Trusted Types: the runtime made the one policy its frame allows before the plugin ran.
	await expect.poll(() => jsonIn(policies)).toEqual({
		trustedTypes: 'object',
		made: [],
		importScripts: "Failed to execute 'importScripts' on 'WorkerGlobalScope': This document requires 'TrustedScriptURL' assignment.",
		worker: "Failed to construct 'Worker': This document requires 'TrustedScriptURL' assignment."
	});
	await navigate(page, 'Plugins');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
});

test('a plugin logging or posting in a loop is throttled, and the page answers throughout', TIMING, async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/greedy.js`, 'Greedy plugin');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	const lag = await watchLateness(page);

	// Through ctx.log: lines over the budget are dropped and counted; the plugin stays.
	await runCommand(page, '/logs');
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('typing while it logs');
	await expect(box).toHaveValue('typing while it logs');
	await lag.aside(() => navigate(page, 'Plugins'));
	await expect(row.getByRole('definition').filter({ hasText: /^[\d,]{5,} lines dropped \(over 50 a second\)$/ })).toBeVisible({ timeout: 10_000 });
	await expect(rowStatus(row, 'Loaded')).toBeVisible();

	// Raw messages as fast as it can post them, on the only channel its code has (its worker's
	// own, which ends in its frame): none reaches the page, and the plugin keeps answering.
	await lag.aside(() => navigate(page, 'Chat'));
	await runCommand(page, '/flood');
	await expect(await runCommand(page, '/ping')).toContainText('pong');
	await lag.aside(() => navigate(page, 'Plugins'));
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(row.getByRole('definition').filter({ hasText: 'messages from the plugin that the app does not accept' })).toHaveCount(0);
	// Unthrottled, the page froze for seconds. Drawing a page is left out (`aside`); what is
	// left is the plugin's share: the page's timers keep their time.
	expect((await lag.read()).p99).toBeLessThan(50);
});

test('a plugin storing without end is refused past its budget, and its row shows what it holds', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/greedy.js`, 'Greedy plugin');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(row.getByRole('definition').filter({ hasText: '0 bytes of 5 MB' })).toBeVisible();
	await navigate(page, 'Chat');
	const output = await runCommand(page, '/fill');
	await expect(output).toContainText(/stored 9 chunks; then Plugin "greedy" storage is full: this write needs 512 KB more, and it uses 4\.5 MB of its 5 MB/);
	await expect.poll(async () => (await readRows(page, 'palimpsest-default', 'plugin_kv')).filter((entry) => entry.plugin_id === 'greedy')).toHaveLength(9);
	await navigate(page, 'Plugins');
	await expect(row.getByRole('definition').filter({ hasText: '4.5 MB of 5 MB' })).toBeVisible();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
});

test('a plugin that allocates without bound, or spins in a timer, is stopped; the page and other plugins go on', TIMING, async ({ page }) => {
	await openApp(page);
	const hog = await addPlugin(page, `${origins.cors}/greedy.js`, 'Greedy plugin');
	const keeper = await addPlugin(page, `${origins.cors}/keeper.js`, 'Secret keeper');
	await expect(rowStatus(hog, 'Loaded')).toBeVisible();
	await expect(rowStatus(keeper, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	const lag = await watchLateness(page);
	await runCommand(page, '/hog');
	await lag.aside(() => navigate(page, 'Plugins'));
	await expect(rowStatus(hog, 'Stopped')).toBeVisible({ timeout: 30_000 });
	await expect(hog.getByRole('alert')).toContainText('stopped answering');
	// The other plugins start again in a fresh process: the one the hog filled ends, and its
	// memory with it (otherwise the next plugin there to need memory takes the process down).
	await expect(rowStatus(keeper, 'Loaded')).toBeVisible();
	await expect(keeper).toContainText('Started again after Greedy plugin was stopped');
	await lag.aside(() => navigate(page, 'Chat'));
	await expect(await runCommand(page, '/keep still-here')).toContainText('kept still-here');
	// Only the machine's cores are shared: the page's own thread never waits on the plugin.
	expect((await lag.read()).p99).toBeLessThan(50);

	await navigate(page, 'Plugins');
	await pluginRow(page, 'Greedy plugin').getByRole('button', { name: 'Reload' }).click();
	await expect(rowStatus(hog, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await runCommand(page, '/spin');
	await navigate(page, 'Plugins');
	await expect(rowStatus(hog, 'Stopped')).toBeVisible({ timeout: 20_000 });
	await expect(hog.getByRole('alert')).toContainText('its code stopped answering for 6 s (an endless loop, or it ran out of memory)');
	await expect(rowStatus(keeper, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await sendMessage(page, 'Still chatting');
	await expect(messageBody(await waitForAnswer(page))).toContainText('Still chatting');
});
