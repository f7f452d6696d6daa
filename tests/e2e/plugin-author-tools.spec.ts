// What the Plugins page gives a plugin author: Send test event (to one plugin only, with its
// result in the row and a test-marked Hook log row), a warning row for a pre_llm_call return
// the app cannot use, each row's storage and ctx.log lines, and the test kit served beside
// plugin-api.d.ts for tests in the browser.
import { expect, test, type Locator, type Page } from './test-base';
import { openApp, sendAndWait } from './helpers';
import { addPlugin, hookLogRows, navigate, pluginRow as pluginRowNamed, rowStatus } from './plugin-helpers';
import { usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();

/** Opens a row's test event form (closed until then) and returns it. */
async function openTestEvent(row: Locator): Promise<Locator> {
	const toggle = row.getByRole('button', { name: 'Send test event' });
	await toggle.click();
	await expect(toggle).toHaveAttribute('aria-expanded', 'true');
	return row.getByRole('form', { name: /^Test event for / });
}

/** Picks `hook` in a test event form and waits for its payload; returns the test session id the payload carries. */
async function pickHook(form: Locator, hook: string): Promise<string> {
	await form.getByRole('combobox', { name: 'Hook' }).selectOption(hook);
	const session = form.getByRole('textbox', { name: 'Test session id' });
	await expect(session).toHaveValue(/^test-[0-9a-f]+$/);
	const sessionId = await session.inputValue();
	await expect(form.getByRole('textbox', { name: 'Payload' })).toHaveValue(new RegExp(`"session_id": "${sessionId}"`));
	return sessionId;
}

/** A sentence of the test tools' code (Send test event, storage and log views): it names the script that holds it. */
const INSPECTOR_TEXT = 'Would let the tool call through unchanged.';

/** Holds back the script holding `text` until `release`; `requested` settles when the page asks for it. */
async function holdScript(page: Page, text: string): Promise<{ requested: Promise<void>; release: () => void }> {
	let requested!: () => void;
	let release!: () => void;
	const asked = new Promise<void>((resolve) => (requested = resolve));
	const released = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/_app/immutable/**/*.js', async (route) => {
		const response = await route.fetch({ maxRetries: 2 });
		const body = await response.text();
		if (body.includes(text)) {
			requested();
			await released;
		}
		await route.fulfill({ response, body });
	});
	return { requested: asked, release };
}

function storageOf(page: Page, name: string): Locator {
	return page.getByRole('region', { name: `Storage of ${name}` });
}

test('Send test event reaches only the chosen plugin, and the row and the Hook log show its result', async ({ page }) => {
	await openApp(page);
	const conventions = await addPlugin(page, '/plugins/conventions.js', 'conventions');
	await expect(rowStatus(conventions, 'Loaded')).toBeVisible();
	const careless = await addPlugin(page, `${origins.cors}/careless.js`, 'careless');
	await expect(rowStatus(careless, 'Loaded')).toBeVisible();

	// Both listen to post_compaction; the event goes to conventions only, with its test session.
	const form = await openTestEvent(conventions);
	const sessionId = await pickHook(form, 'post_compaction');
	await expect(form.getByRole('textbox', { name: 'Payload' })).toHaveValue(/"kind": "summarize"/);
	await form.getByRole('button', { name: 'Send event' }).click();
	const result = form.getByRole('status', { name: 'Test event result' });
	await expect(result).toContainText('post_compaction: Delivered.');
	await expect(result).toContainText('ok in');

	// conventions marked the session in a scratch copy of its storage: the real one stays empty;
	// careless heard nothing (its storage and log stay empty).
	await conventions.getByRole('button', { name: 'Show storage' }).click();
	await expect(storageOf(page, 'conventions')).toContainText('Nothing stored.');
	await careless.getByRole('button', { name: 'Show storage' }).click();
	await expect(storageOf(page, 'careless')).toContainText('Nothing stored.');
	await careless.getByRole('button', { name: 'Show log' }).click();
	await expect(page.getByRole('region', { name: 'Log of careless' })).toContainText('Nothing logged');

	const testRows = hookLogRows(page, 'conventions', 'ok').filter({ has: page.getByRole('cell', { name: 'post_compaction (test)', exact: true }) });
	await expect(testRows).toHaveCount(1);
	await expect(hookLogRows(page, 'careless').filter({ hasText: 'post_compaction' })).toHaveCount(0);

	// The next pre_llm_call of the same test session re-injects, from the scratch copy.
	await pickHook(form, 'pre_llm_call');
	const payload = form.getByRole('textbox', { name: 'Payload' });
	await expect(payload).toHaveValue(new RegExp(`"session_id": "${sessionId}"`));
	await form.getByRole('button', { name: 'Send event' }).click();
	await expect(result).toContainText(/pre_llm_call: Would add \d+ characters of context to the message\./);
	await expect(result).toContainText('added context (');
	const injected = hookLogRows(page, 'conventions', 'ok').filter({ has: page.getByRole('cell', { name: 'pre_llm_call (test)', exact: true }) });
	await expect(injected).toContainText('added context (');

	// With Use real storage, the event writes to the plugin's own storage.
	await pickHook(form, 'post_compaction');
	await form.getByRole('checkbox', { name: 'Use real storage' }).check();
	await form.getByRole('button', { name: 'Send event' }).click();
	await expect(storageOf(page, 'conventions')).toContainText(`pending:${sessionId}`);
	await pickHook(form, 'pre_llm_call');

	// The row's details show the full payload this tab sent.
	await injected.getByRole('button', { name: 'Details' }).click();
	await expect(page.getByRole('definition').filter({ hasText: `session_id: "${sessionId}"` })).toHaveCount(1);

	// A payload that is not JSON is refused with the reason; nothing is sent.
	await payload.fill('{ not json');
	await form.getByRole('button', { name: 'Send event' }).click();
	await expect(form.getByRole('alert')).toContainText('The payload is not valid JSON');
	await expect(injected).toHaveCount(1);
});

test.describe('while the test tools are still loading', () => {
	// Requests go through the page (a service worker would answer from its cache instead).
	test.use({ serviceWorkers: 'block' });

	test('a hook picked before the test tools arrive gets its payload once they do', async ({ page }) => {
		await openApp(page);
		const conventions = await addPlugin(page, '/plugins/conventions.js', 'conventions');
		await expect(rowStatus(conventions, 'Loaded')).toBeVisible();
		const tools = await holdScript(page, INSPECTOR_TEXT);
		const form = await openTestEvent(conventions);
		await tools.requested;
		await form.getByRole('combobox', { name: 'Hook' }).selectOption('pre_llm_call');
		tools.release();
		await expect(form.getByRole('textbox', { name: 'Test session id' })).toHaveValue(/^test-[0-9a-f]+$/);
		await expect(form.getByRole('textbox', { name: 'Payload' })).toHaveValue(/"is_first_turn": false/);
		await form.getByRole('button', { name: 'Send event' }).click();
		await expect(form.getByRole('status', { name: 'Test event result' })).toContainText('pre_llm_call: Would add');
	});
});

test('a pre_llm_call return the app cannot use is a warning row that says what was expected', async ({ page }) => {
	await openApp(page);
	const careless = await addPlugin(page, `${origins.cors}/careless.js`, 'careless');
	await expect(rowStatus(careless, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await sendAndWait(page, 'Hello there');
	await navigate(page, 'Plugins');

	const warned = hookLogRows(page, 'careless', 'warning');
	await expect(warned).toHaveCount(1);
	await expect(warned).toContainText('pre_llm_call');
	await expect(warned).toContainText('added nothing');
	await expect(warned).toContainText('Expected context to be a string; got the number 42. Nothing was added.');
	await expect(hookLogRows(page, 'careless', 'ok').filter({ hasText: 'pre_llm_call' })).toHaveCount(0);
	await warned.getByRole('button', { name: 'Details' }).click();
	await expect(page.getByRole('definition').filter({ hasText: 'context: 42' })).toHaveCount(1);
});

test('each row shows what its plugin stored and logged, live', async ({ page }) => {
	await openApp(page);
	const index = await addPlugin(page, '/plugins/session-index.js', 'session-index');
	await expect(rowStatus(index, 'Loaded')).toBeVisible();
	const careless = await addPlugin(page, `${origins.cors}/careless.js`, 'careless');
	await expect(rowStatus(careless, 'Loaded')).toBeVisible();

	await navigate(page, 'Chat');
	await sendAndWait(page, 'Where are the release notes kept?');
	await navigate(page, 'Plugins');
	await index.getByRole('button', { name: 'Show storage' }).click();
	const stored = storageOf(page, 'session-index');
	await expect(stored).toContainText(/session:[0-9a-f-]{36}/);
	await expect(stored).toContainText('turns: 1');
	await expect(stored).toContainText('last_user_message_preview: "Where are the release notes kept?"');

	// A value stored while the view is open appears without reopening it; so does a log line.
	await careless.getByRole('button', { name: 'Show storage' }).click();
	await careless.getByRole('button', { name: 'Show log' }).click();
	const form = await openTestEvent(careless);
	const sessionId = await pickHook(form, 'post_compaction');
	await form.getByRole('checkbox', { name: 'Use real storage' }).check();
	await form.getByRole('button', { name: 'Send event' }).click();
	await expect(storageOf(page, 'careless')).toContainText(`seen:${sessionId}`);
	await expect(page.getByRole('region', { name: 'Log of careless' })).toContainText(`info post_compaction for ${sessionId}`);

	// The log lines survive a reload, and the view says since when.
	await page.reload();
	await pluginRowNamed(page, 'careless').getByRole('button', { name: 'Show log' }).click();
	const log = page.getByRole('region', { name: 'Log of careless' });
	await expect(log).toContainText(`info post_compaction for ${sessionId}`);
	await expect(log).toContainText('Every line since');
});

test('the test kit is served beside plugin-api.d.ts and runs a plugin in the browser', async ({ page }) => {
	await openApp(page);
	const outcome = await page.evaluate(async () => {
		// Imported by the page from the app's own origin, as an author's browser test would.
		const [kitUrl, pluginUrl] = ['/plugin-test-kit.js', '/plugins/conventions.js'];
		const { createTestKit } = await import(/* @vite-ignore */ kitUrl);
		const kit = createTestKit();
		const plugin = await kit.load(await import(/* @vite-ignore */ pluginUrl), { plugin_id: 'conventions' });
		await kit.fire('post_compaction', { session_id: 's1' });
		const turn = await kit.fire('pre_llm_call', { session_id: 's1' });
		let refused = '';
		await kit.fire('post_compact', {}).catch((error: Error) => (refused = error.message));
		return { context: turn.context, stored: Object.keys(plugin.stored()), refused };
	});
	expect(outcome.context).toMatch(/Team conventions/);
	expect(outcome.stored).toEqual(['pending:s1']);
	expect(outcome.refused).toMatch(/Did you mean "post_compaction"\?/);
	const types = await page.request.get('/plugin-test-kit.d.ts');
	expect(types.ok()).toBe(true);
	expect(await types.text()).toContain('export function createTestKit');
});

test('the Plugins page gives the command that fetches the test kit from the app’s own address, and copies it', async ({ page, context, baseURL }) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await openApp(page);
	await navigate(page, 'Plugins');
	const kit = page.getByRole('region', { name: 'Write your own' });
	const origin = new URL(baseURL!).origin;
	const command = `curl -O ${origin}/plugin-test-kit.js -O ${origin}/plugin-test-kit.d.ts -O ${origin}/plugin-api.d.ts`;
	await expect(kit.getByText(command, { exact: true })).toBeVisible();
	await kit.getByRole('button', { name: 'Copy command' }).click();
	await expect(kit.getByRole('status')).toHaveText('Command copied.');
	await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(command);
	// Every file it names is there.
	for (const file of ['plugin-test-kit.js', 'plugin-test-kit.d.ts', 'plugin-api.d.ts']) expect((await page.request.get(`/${file}`)).ok()).toBe(true);
});
