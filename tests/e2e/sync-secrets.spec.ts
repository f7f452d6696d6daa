// What stays on the device never reaches the sync server: a sentinel put in every secret place
// (a provider's API key, a tool server's Authorization, plugin code, plugin storage, the hook
// log) is found in none of the server's databases,
// while the conversation it was typed beside is.
import { expect, test, type Page } from './test-base';
import { openApp, sendAndWait } from './helpers';
import { addCustomProvider, addPlugin, navigate, readRows, runCommand } from './plugin-helpers';
import { createDatabase, startSync } from './sync-helpers';
import { useCouchServer, usePluginOrigins } from './test-servers';

const couch = useCouchServer();
const origins = usePluginOrigins();

/** The string secret-places.js carries in its code; every secret below carries it too. */
const SENTINEL = 'SENTINEL-3f9b-stays-on-device';
const CONTROL = 'echo: control-message-2d81 is conversation';

/** The stores of the profile's database that hold the sentinel somewhere. */
async function storesHolding(page: Page, text: string): Promise<string[]> {
	const names = await page.evaluate(
		() =>
			new Promise<string[]>((resolve, reject) => {
				const open = indexedDB.open('palimpsest-default');
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const names = [...open.result.objectStoreNames];
					open.result.close();
					resolve(names);
				};
			})
	);
	const holding: string[] = [];
	for (const name of names) if (JSON.stringify(await readRows(page, 'palimpsest-default', name)).includes(text)) holding.push(name);
	return holding;
}

/** Every document of every database on the server, as the server sends them. */
async function everythingOnServer(): Promise<string> {
	const databases = (await (await fetch(`${couch.url}/_all_dbs`)).json()) as string[];
	const bodies: string[] = [];
	for (const name of databases) bodies.push(await (await fetch(`${couch.url}/${encodeURIComponent(name)}/_all_docs?include_docs=true`)).text());
	return bodies.join('\n');
}

test('a sentinel in every secret place is absent from every database of the sync server, while the conversation is there', async ({ page }) => {
	const database = await createDatabase(couch.url);
	await openApp(page);
	await addPlugin(page, `${origins.cors}/secret-places.js`, 'Secret places');
	await navigate(page, 'Chat');
	// The plugin's post_llm_call fails on this turn, naming the sentinel in the hook log.
	await sendAndWait(page, CONTROL);
	await expect(await runCommand(page, '/stash')).toContainText('stashed');
	await addCustomProvider(page, 'http://127.0.0.1:9/v1', 'never-called', `sk-${SENTINEL}-api-key`);
	await navigate(page, 'Settings');
	await page.getByRole('textbox', { name: 'Tool server URL' }).fill('http://127.0.0.1:9/mcp');
	await page.getByRole('textbox', { name: 'Authorization' }).fill(`Bearer ${SENTINEL}-tool-server`);
	await page.getByRole('button', { name: 'Add tool server' }).click();
	await expect(page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem')).toHaveCount(1);

	// Each place really holds it on this device (a search of the server finds nothing otherwise too).
	await expect.poll(() => storesHolding(page, `${SENTINEL}-api-key`)).not.toEqual([]);
	await expect.poll(() => storesHolding(page, `${SENTINEL}-tool-server`)).not.toEqual([]);
	await expect.poll(() => storesHolding(page, `refused ${SENTINEL}`)).toContain('hook_log');
	await expect.poll(() => storesHolding(page, SENTINEL)).toEqual(expect.arrayContaining(['plugins', 'plugin_kv']));

	await startSync(page, database);
	await expect.poll(everythingOnServer).toContain('control-message-2d81');
	expect(await everythingOnServer()).not.toContain(SENTINEL);
});
