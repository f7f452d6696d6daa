// A plugin never makes the page late: whatever it does through its storage, its log or raw
// messages, the page's own timers keep their time (the receiving end of every plugin channel
// works off the page's thread), and the plugin's row says what was throttled or why it was stopped.
import { expect, test, TIMING } from './test-base';
import { watchLateness } from './lateness';
import { openApp } from './helpers';
import { addPlugin, navigate, rowStatus, runCommand } from './plugin-helpers';
import { usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();

test('a plugin writing near-megabyte values in a loop is throttled, and the page keeps its time', TIMING, async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/flood.js`, 'Flooding plugin');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	const lateness = await watchLateness(page);
	// The command answers when its six seconds of writing are over, the throttled writes too.
	await expect(await runCommand(page, '/store', 20_000)).toContainText(/stored with \d+ calls, \d+ refused/);
	const { p99, count } = await lateness.read();
	expect(count).toBeGreaterThan(300);
	expect(p99).toBeLessThan(50);
	await navigate(page, 'Plugins');
	await expect(row.getByRole('definition').filter({ hasText: /storage calls refused \(over .* a second\)/ })).toBeVisible();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
});

test('a plugin that keeps its processor busy nine tenths of the time is stopped, and its row says why', TIMING, async ({ page }) => {
	test.setTimeout(90_000);
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/flood.js`, 'Flooding plugin');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/busy')).toContainText('busy');
	await navigate(page, 'Plugins');
	// Judged over 30 s of its answers: half of them waited past half a second.
	await expect(rowStatus(row, 'Stopped')).toBeVisible({ timeout: 60_000 });
	await expect(row.getByRole('alert')).toContainText('its code kept its processor busy: over the last 30 s, half of the app’s checks waited more than 0.5 s');
	await expect(page.locator('iframe[sandbox="allow-scripts"]')).toHaveCount(0);
});
