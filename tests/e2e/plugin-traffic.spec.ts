// What one plugin sends is charged to that plugin alone. A plugin flooding the app with
// near-megabyte messages is the one throttled, while another plugin's pre_llm_call answers as
// quickly as before; a plugin's tools of a megabyte are refused where they are registered, and
// a request its tools make larger than the model's window is not sent: the chat says which
// plugin's tools are too large, and the provider hears nothing.
import { expect, test, TIMING, type Page } from './test-base';
import { messageBody, openApp, sendAndWait, sendMessage, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate, pluginRow, readRows, rowStatus, runCommand } from './plugin-helpers';
import { useMockProvider, usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();
const mock = useMockProvider();

/** How long each pre_llm_call of `pluginId` took (ms), oldest first, as the hook log stored it. */
async function hookDurations(page: Page, pluginId: string): Promise<number[]> {
	const rows = await readRows(page, 'palimpsest-default', 'hook_log');
	return rows
		.filter((row) => row.plugin_id === pluginId && row.hook === 'pre_llm_call')
		.sort((a, b) => Number(a.at) - Number(b.at))
		.map((row) => Number(row.duration_ms));
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** The line of a plugin's row that holds `text`. */
function rowLine(page: Page, name: string, text: string | RegExp) {
	return pluginRow(page, name).getByRole('definition').filter({ hasText: text });
}

test("a plugin flooding the app with near-megabyte messages is the one throttled; another plugin's pre_llm_call stays quick", TIMING, async ({ page }) => {
	test.setTimeout(120_000);
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	const harmless = await addPlugin(page, `${origins.cors}/harmless.js`, 'Harmless plugin');
	const flood = await addPlugin(page, `${origins.cors}/message-flood.js`, 'Message flood');
	await expect(rowStatus(harmless, 'Loaded')).toBeVisible();
	await expect(rowStatus(flood, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	// Three turns before the flood: what a pre_llm_call through the harmless plugin takes here.
	for (const n of ['one', 'two', 'three']) await sendAndWait(page, `Before the flood, ${n}`);
	await expect.poll(async () => (await hookDurations(page, 'harmless')).length).toBe(3);

	await expect(await runCommand(page, '/message-flood')).toContainText('flooding');
	// Five turns while it keeps 250 writes of near a megabyte in flight.
	for (const n of ['one', 'two', 'three', 'four', 'five']) {
		await sendMessage(page, `During the flood, ${n}`);
		await expect(messageBody(await waitForAnswer(page))).toContainText(`During the flood, ${n}`);
	}
	// Read in arrival order, each call waited behind the flood's backlog: seconds. Read in turns,
	// a call waits for at most the one message of the flood being read when it came.
	await expect
		.poll(async () => {
			const durations = await hookDurations(page, 'harmless');
			return durations.length === 8 ? median(durations.slice(3)) - median(durations.slice(0, 3)) : Infinity;
		})
		.toBeLessThan(50);

	await navigate(page, 'Plugins');
	// The flood is charged to the flooder: its messages waited their turn past its bytes budget,
	// or (on a machine too busy to read 16 MB a second) its own backlog kept its answers waiting until it was stopped.
	await expect(flood.getByText(/^[\d,]+ messages waited their turn \(over 16 MB a second\)|^Stopped: it sent the app more than the 16 MB a second of messages read from one plugin/).first()).toBeVisible();
	await expect(harmless.getByText(/messages waited their turn|Stopped/)).toHaveCount(0);
	await expect(rowStatus(harmless, 'Loaded')).toBeVisible();
});

test('a plugin’s 100 tools of a megabyte are refused; a request its other tools make too large for the window is not sent, and the chat names the plugin', async ({ page }) => {
	await openApp(page);
	// gpt-4: a window of 8,192 tokens.
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'gpt-4');
	const row = await addPlugin(page, `${origins.cors}/bulky-tools.js`, 'Bulky tools');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(rowLine(page, 'Bulky tools', 'tools over the size a tool may have')).toHaveText(
		'100 tools over the size a tool may have; the last: Plugin "bulky-tools" cannot register tool "huge_99": its parameters take more than 16 KB as JSON, the most a tool\'s parameters may take.'
	);
	await expect(row.getByRole('definition').filter({ hasText: 'bulky_0' })).toHaveText('bulky_0, bulky_1, bulky_2');

	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/bulky-refusals')).toContainText(
		'100 refused; the first: Plugin "bulky-tools" cannot register tool "huge_0": its parameters take more than 16 KB as JSON'
	);
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	// The meter counts the plugin's three tools (about 2,800 tokens each): with them alone, the next request is over the window.
	const meter = page.getByRole('status', { name: 'Context usage' });
	const gauge = meter.getByRole('button', { name: / tokens \(/ });
	await expect(gauge).toHaveText(/^\s*9,\d{3} \/ 8,192 tokens/);
	// A tool registered while the chat is open is counted at once.
	await expect(await runCommand(page, '/bulky-more')).toContainText('registered bulky_more');
	await expect(gauge).toHaveText(/^\s*1[12],\d{3} \/ 8,192 tokens/);
	await gauge.click();
	const details = page.getByRole('dialog', { name: 'Context usage' });
	await expect(details.getByRole('term').first()).toHaveText('System prompt and tools');
	await expect(details.getByRole('definition').first()).toHaveText(/^1[01],\d{3}$/);
	await page.keyboard.press('Escape');

	await sendMessage(page, 'A request the tools make too large');
	const answer = await waitForAnswer(page, 'error');
	await expect(answer).toContainText(
		/Nothing was sent: the tools of plugin "Bulky tools" \([\d,]+ tokens\) make the request [\d,]+ tokens, more than the model's context window of 8,192 tokens\. Turn the plugin off on the Plugins page, or choose a model with a larger window\./
	);
	// The provider heard nothing: no request, no compaction's summary.
	expect(mock.requests.filter((request) => request.method === 'POST')).toEqual([]);
});
