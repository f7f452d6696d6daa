// Plugins run isolated: each in its own opaque-origin context, reached only through the hook
// bus. A plugin cannot read the app's IndexedDB (sessions, API keys), localStorage, cookies,
// the DOM or another plugin's storage, while the app itself still can; and a plugin stuck in
// an endless loop is stopped after the hook timeout while the page keeps responding.
import { expect, test, TIMING, type Page } from './test-base';
import { messageBody, openApp, sendMessage, waitForAnswer } from './helpers';
import { addPlugin, hookLogRows, navigate, readRows, rowStatus, runCommand, setHookTimeout } from './plugin-helpers';
import { chooseModel, OFFLINE_LABEL } from './provider-helpers';
import { usePluginOrigins } from './test-servers';

const API_KEY = 'sk-isolation-SECRET-42';

const origins = usePluginOrigins();

async function saveProviderWithKey(page: Page): Promise<void> {
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'OpenAI' });
	// Nothing listens there: the key is only kept, never sent anywhere.
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9/v1');
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('gpt-4o');
	await page.getByRole('textbox', { name: 'API key' }).fill(API_KEY);
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved OpenAI · gpt-4o');
}

/** Main-thread tasks over 50 ms from now on, as a PerformanceObserver sees them. */
async function watchLongTasks(page: Page): Promise<() => Promise<number[]>> {
	await page.evaluate(() => {
		const seen: number[] = [];
		(globalThis as unknown as { __longTasks: number[] }).__longTasks = seen;
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) seen.push(Math.round(entry.duration));
		}).observe({ type: 'longtask' });
	});
	return () => page.evaluate(() => (globalThis as unknown as { __longTasks: number[] }).__longTasks);
}

test('a plugin cannot read the app’s database, storage, cookies, DOM or another plugin’s storage', async ({ page }) => {
	await openApp(page);
	await page.evaluate(() => {
		localStorage.setItem('palimpsest-probe', 'page-only');
		document.cookie = 'palimpsest-probe=page-only; path=/';
	});
	await saveProviderWithKey(page);
	// The provider saved first is the default; this conversation is the offline model's.
	await chooseModel(page, OFFLINE_LABEL);
	await sendMessage(page, 'A conversation a plugin must not read');
	await waitForAnswer(page);

	await addPlugin(page, `${origins.cors}/keeper.js`, 'Secret keeper');
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/keep kept-by-keeper')).toContainText('kept kept-by-keeper');

	const row = await addPlugin(page, `${origins.cors}/nosy.js`, 'Nosy plugin');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	// Each plugin has its own sandboxed frame, without allow-same-origin.
	await expect(page.locator('iframe[sandbox="allow-scripts"]')).toHaveCount(2);
	await navigate(page, 'Chat');
	const output = await runCommand(page, '/probe');
	const attempts = [
		'settings and API keys in IndexedDB',
		'sessions in IndexedDB',
		"other plugins' storage in IndexedDB",
		'the list of databases',
		'localStorage',
		'cookies',
		'the DOM',
		"the page's DOM",
		'the Cache Storage',
		"another plugin's storage through ctx"
	];
	for (const attempt of attempts) await expect(output, attempt).toContainText(`${attempt}: refused (`);
	await expect(output).not.toContainText('GOT');

	// The data is there for the app itself.
	await expect.poll(async () => JSON.stringify(await readRows(page, 'palimpsest-default', 'settings'))).toContain(API_KEY);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'sessions')).not.toHaveLength(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'plugin_kv')).toContainEqual(expect.objectContaining({ plugin_id: 'keeper', key: 'secret', value: 'kept-by-keeper' }));
	await expect.poll(() => page.evaluate(() => [localStorage.getItem('palimpsest-probe'), document.cookie.includes('palimpsest-probe=page-only')])).toEqual(['page-only', true]);
});

test('a plugin stuck in an endless loop is stopped after the timeout; the turn goes on and the page keeps responding', TIMING, async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/spin.js`, 'Spinning hook');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await setHookTimeout(page, 1);
	await navigate(page, 'Chat');

	const longTasks = await watchLongTasks(page);
	await sendMessage(page, 'Hello past the spinning plugin');
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Hello past the spinning plugin');
	// The page answered throughout: typing works while (and after) the plugin spun.
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('still typing');
	await expect(box).toHaveValue('still typing');
	expect(Math.max(0, ...(await longTasks()))).toBeLessThan(200);

	await navigate(page, 'Plugins');
	await expect(rowStatus(row, 'Stopped')).toBeVisible();
	await expect(row.getByRole('alert')).toContainText('its pre_llm_call callback did not answer within 1 s');
	await expect(row.getByRole('button', { name: 'Reload' })).toBeEnabled();
	await expect(hookLogRows(page, 'spin', 'timeout')).toHaveCount(1);
	// Its context is gone with it.
	await expect(page.locator('iframe[sandbox="allow-scripts"]')).toHaveCount(0);

	// Reload starts it again.
	await row.getByRole('button', { name: 'Reload' }).click();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(page.locator('iframe[sandbox="allow-scripts"]')).toHaveCount(1);
});
