// Plugin hooks in a real browser: pre_llm_call context reaches the provider's request (and the
// disclosure in the transcript) but never the stored message, and a hook that hangs is cut off
// by the hook timeout instead of stalling the chat.
import { expect, test } from './test-base';
import { assistantMessages, messageBody, messageText, openApp, sendMessage, sessionIdFromUrl, userMessages, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, hookLogRows, navigate, readRows, rowStatus, setHookTimeout } from './plugin-helpers';
import { useMockProvider, usePluginOrigins } from './test-servers';

const PLUGIN_TEXT = 'PLUGIN-CONTEXT-1234';

const origins = usePluginOrigins();
const mock = useMockProvider();

/** Text of a chat message's content, whether a string or a list of parts. */
function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => String(part?.text ?? part?.content ?? '')).join('');
	return '';
}

test('pre_llm_call context is sent to the provider and disclosed, but not stored as the message', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/inject.js`, 'Context injector');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(row).toContainText('pre_llm_call');
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');

	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	const typed = 'What is the capital of France?';
	await sendMessage(page, typed);
	const sessionId = sessionIdFromUrl(page);
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Mock answer to:');

	// What the provider received: the plugin's text on the last user message, not the system prompt.
	const chats = mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
	expect(chats).toHaveLength(1);
	const messages: { role: string; content: unknown }[] = chats[0].body.messages;
	expect(chats[0].body.model).toBe('mock-model');
	const lastUser = messages.filter((m) => m.role === 'user').at(-1);
	expect(contentText(lastUser?.content)).toContain(typed);
	expect(contentText(lastUser?.content)).toContain(PLUGIN_TEXT);
	for (const system of messages.filter((m) => m.role === 'system')) {
		expect(contentText(system.content)).not.toContain(PLUGIN_TEXT);
	}
	// Nowhere else in the request either: once, on the outgoing user message.
	expect(JSON.stringify(chats[0].body).split(PLUGIN_TEXT)).toHaveLength(2);

	// What the user sees: their message as typed, and a collapsed disclosure of the context.
	const mine = userMessages(page).last();
	await expect.poll(() => messageText(mine)).toBe(typed);
	const disclosure = mine.locator('details').filter({ hasText: 'Context added by plugins' });
	await expect(disclosure).toHaveCount(1);
	await expect(disclosure).not.toHaveAttribute('open');
	await expect(mine.getByText(PLUGIN_TEXT)).toBeHidden();
	await disclosure.getByText('Context added by plugins').click();
	await expect(disclosure).toHaveAttribute('open');
	await expect(disclosure.getByText('Context injector')).toBeVisible();
	await expect(disclosure.getByText(PLUGIN_TEXT)).toBeVisible();

	// What was stored: exactly what the user typed.
	const stored = (await readRows(page, 'palimpsest-default', 'messages')).filter(
		(m) => m.session_id === sessionId && m.role === 'user'
	);
	expect(stored).toHaveLength(1);
	expect(stored[0].content).toBe(typed);

	// After a reload the disclosure is still there, and the message is still as typed.
	await page.reload();
	const reloaded = userMessages(page).last();
	await expect(messageBody(reloaded)).toHaveText(typed);
	const again = reloaded.locator('details').filter({ hasText: 'Context added by plugins' });
	await expect(again).toHaveCount(1);
	await again.getByText('Context added by plugins').click();
	await expect(again.getByText('Context injector')).toBeVisible();
	await expect(again.getByText(PLUGIN_TEXT)).toBeVisible();
	await expect(assistantMessages(page)).toHaveCount(1);
});

test('a hook that never answers times out, the chat carries on, and it is skipped next time', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/hang.js`, 'Hanging hook');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await setHookTimeout(page, 1);

	// Offline model (the default): the answer completes a little after the 1 s timeout.
	await navigate(page, 'Chat');
	await sendMessage(page, 'Hello despite the hanging plugin');
	const first = await waitForAnswer(page);
	await expect(messageBody(first)).toContainText('Hello despite the hanging plugin');

	// Client-side navigation keeps the app (and the plugin's 60 s quarantine) alive.
	await navigate(page, 'Plugins');
	await expect(hookLogRows(page, 'hang', 'timeout')).toHaveCount(1);
	await expect(hookLogRows(page, 'hang', 'timeout')).toContainText('pre_llm_call');
	// The turn waited for it about the 1 s set, by the page's own clock (however busy the machine).
	await expect(hookLogRows(page, 'hang', 'timeout').getByRole('cell', { name: /^[1-5]\d{3} ms$/ })).toHaveCount(1);
	await expect(hookLogRows(page, 'hang', 'skipped')).toHaveCount(0);

	await page.goBack();
	await expect(userMessages(page)).toHaveCount(1);
	await sendMessage(page, 'And a second message');
	const second = await waitForAnswer(page);
	await expect(messageBody(second)).toContainText('And a second message');
	await expect(assistantMessages(page)).toHaveCount(2);

	await navigate(page, 'Plugins');
	// Skipped, not waited for again.
	await expect(hookLogRows(page, 'hang', 'skipped')).toHaveCount(1);
	await expect(hookLogRows(page, 'hang', 'skipped')).toContainText('pre_llm_call');
	await expect(hookLogRows(page, 'hang', 'timeout')).toHaveCount(1);
});

test('observer hooks that never answer do not hold up the chat, even with the default 30 s timeout', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/slow-observer.js`, 'Slow observer');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();

	await navigate(page, 'Chat');
	const started = Date.now();
	// A new session (on_session_start) and a finished answer (post_llm_call) both hang.
	await sendMessage(page, 'Hello despite the slow observer');
	await waitForAnswer(page);
	// Held up, the turn would take the whole 30 s timeout; the bounds leave a busy machine its room.
	expect(Date.now() - started).toBeLessThan(20_000);
	const firstId = sessionIdFromUrl(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('/new');
	await box.press('Enter');
	await expect.poll(() => sessionIdFromUrl(page)).not.toBe(firstId);
	await expect(userMessages(page)).toHaveCount(0);
	await sendMessage(page, 'A second session answers too');
	await waitForAnswer(page);
	expect(Date.now() - started).toBeLessThan(25_000);
});

test('lifecycle hooks fire once each: start on create, finalize when left, end/finalize/start/reset on /new', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/lifecycle-log.js`, 'Lifecycle log');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');

	await sendMessage(page, 'first session');
	await waitForAnswer(page);
	const a = sessionIdFromUrl(page);
	await page.getByRole('button', { name: 'New session' }).click();
	await sendMessage(page, 'second session');
	await waitForAnswer(page);
	const b = sessionIdFromUrl(page);

	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('/new');
	await box.press('Enter');
	await expect.poll(() => sessionIdFromUrl(page)).not.toBe(b);
	const c = sessionIdFromUrl(page);
	await box.fill('/events');
	await box.press('Enter');
	const output = page.getByRole('article', { name: 'Command output' }).last();
	await expect(output).toContainText(`on_session_reset:${c}`);
	await expect.poll(async () => (await output.textContent())?.match(/on_session_\w+:[\w-]+/g)).toEqual([
		`on_session_start:${a}`,
		`on_session_finalize:${a}`,
		`on_session_start:${b}`,
		`on_session_end:${b}`,
		`on_session_finalize:${b}`,
		`on_session_start:${c}`,
		`on_session_reset:${c}`
	]);
});

test('an unsent draft survives a visit to Settings and stays with its session', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'a session');
	await waitForAnswer(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('half-written thought');
	await navigate(page, 'Settings');
	await navigate(page, 'Chat');
	// "Chat" returns to the session that was open, with the draft still in the box.
	await expect(box).toHaveValue('half-written thought');
	await page.getByRole('button', { name: 'New session' }).click();
	await expect(box).toHaveValue('');
});
