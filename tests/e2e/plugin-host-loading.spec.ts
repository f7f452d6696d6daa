// The code that runs plugins (fetching, isolating and budgeting them) is no part of a start-up
// without plugins: it loads with the first plugin that runs, at start-up only when one is
// switched on, and then the plugin works as ever.
import { expect, test, type Page } from './test-base';
import { openApp } from './helpers';
import { addPlugin, navigate, pluginRow, rowStatus, runCommand } from './plugin-helpers';

// Requests go through the page (a service worker would answer from its cache instead).
test.use({ serviceWorkers: 'block' });

/** A sentence of the plugin host's code: it names the script that holds it, whatever its hash. */
const HOST_TEXT = 'A newer reload, disable or remove replaced this load.';

/** The scripts the page loads, from the last `forget()` on. */
function watchScripts(page: Page) {
	let bodies: Promise<string>[] = [];
	page.on('response', (response) => {
		if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
	});
	return {
		/** Whether a script holding the plugin host's code has arrived. */
		hostLoaded: async () => (await Promise.all(bodies)).some((body) => body.includes(HOST_TEXT)),
		forget: () => void (bodies = [])
	};
}

/**
 * Runs /help: a command waits for start-up's first load of the plugins, so its output means
 * every plugin start-up loads has loaded. Returns the output.
 */
async function helpAfterStartup(page: Page) {
	const output = await runCommand(page, '/help');
	await expect(output).toContainText('/new');
	return output;
}

test('a profile without plugins loads none of the code that runs them; adding one loads it, and the plugin runs', async ({ page }) => {
	const scripts = watchScripts(page);
	await openApp(page);
	await helpAfterStartup(page);
	await expect.poll(scripts.hostLoaded).toBe(false);

	const row = await addPlugin(page, '/plugins/whoami.js', 'whoami');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(row).toContainText('/whoami');
	await expect.poll(scripts.hostLoaded).toBe(true);
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/whoami')).toContainText('Platform: web');
});

test('a plugin switched on loads at start-up; switched off, nothing of the plugins loads until it is switched on again', async ({ page }) => {
	const scripts = watchScripts(page);
	await openApp(page);
	await expect(rowStatus(await addPlugin(page, '/plugins/whoami.js', 'whoami'), 'Loaded')).toBeVisible();

	// Switched on: it runs after a reload, the Plugins page unvisited.
	scripts.forget();
	await openApp(page);
	await expect(await runCommand(page, '/whoami')).toContainText('Platform: web');
	await expect.poll(scripts.hostLoaded).toBe(true);

	await navigate(page, 'Plugins');
	await pluginRow(page, 'whoami').getByRole('switch', { name: 'Enabled' }).uncheck();
	await expect(rowStatus(pluginRow(page, 'whoami'), 'Disabled')).toBeVisible();

	// Switched off: a reload loads no plugin code, and the plugin's command is gone.
	scripts.forget();
	await openApp(page);
	await expect(await helpAfterStartup(page)).not.toContainText('/whoami');
	await expect.poll(scripts.hostLoaded).toBe(false);

	// Switched on again: it loads and runs.
	await navigate(page, 'Plugins');
	const row = pluginRow(page, 'whoami');
	await row.getByRole('switch', { name: 'Enabled' }).check();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect.poll(scripts.hostLoaded).toBe(true);
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/whoami')).toContainText('Platform: web');
});
