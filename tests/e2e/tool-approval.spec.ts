// The approval of a tool call: the dialog shows a call's arguments whole and its row says it
// waits; Always allow covers the model's own arguments, and a plugin that changes a call's
// arguments has the call asked again, with both shown.
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, openToolCall, sendMessage, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, runCommand } from './plugin-helpers';
import { useMockProvider, usePluginOrigins, useReferenceToolServer } from './test-servers';
import { addToolServer, offeredName } from './tool-server-helpers';
import { startRecordingProxy } from '../support/tool-server.mjs';

const mock = useMockProvider();
const server = useReferenceToolServer();
const origins = usePluginOrigins();

/**
 * The reference server behind a pass-through that notes what it is sent, echo always allowed
 * (its first call), and the plugin "Argument rewriter" then rewriting every echo call.
 */
async function alwaysAllowEchoThenRewrite(page: Page) {
	// A plugin, a tool server and two turns before the call under test even starts.
	test.setTimeout(120_000);
	const proxy = await startRecordingProxy(server.url);
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addPlugin(page, `${origins.cors}/rewrite-args.js`, 'Argument rewriter');
	await addToolServer(page, proxy.url);
	const name = await offeredName(page, mock, label, 'echo');
	mock.script([{ type: 'tool_call', name, arguments: { message: 'first' } }, { type: 'text', text: 'Echoed first.' }]);
	await sendMessage(page, 'Echo first.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Always allow' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed first.');
	expect(proxy.calls).toEqual([{ name: 'echo', arguments: { message: 'first' } }]);
	await runCommand(page, '/rewrite-args on');
	return { proxy, name };
}

/** The last tool result the model was sent. */
const lastToolMessage = () => mock.requests.at(-1)!.body.messages.findLast((m: { role: string }) => m.role === 'tool');

test('Always allow covers the model’s own arguments: a plugin’s rewrite asks again with both shown, and Deny keeps it from the server', async ({ page }) => {
	const { proxy, name } = await alwaysAllowEchoThenRewrite(page);
	try {
		mock.script([{ type: 'tool_call', name, arguments: { message: 'second' } }, { type: 'text', text: 'You denied it.' }]);
		await sendMessage(page, 'Echo second.');
		const dialog = page.getByRole('dialog', { name: 'Run a tool?' });
		await expect(dialog).toBeVisible();
		await expect(dialog).toContainText('the plugin Argument rewriter changed its arguments');
		await expect(dialog.getByLabel("The model's arguments")).toContainText('"message": "second"');
		await expect(dialog.getByLabel('Arguments the plugin changed them to')).toContainText('"message": "REWRITTEN by the plugin"');
		// Only for this once: Always allow is not offered for arguments a plugin changed.
		await expect(dialog.getByRole('button', { name: 'Always allow' })).toHaveCount(0);
		await dialog.getByRole('button', { name: 'Deny' }).click();
		await expect(messageBody(await waitForAnswer(page))).toContainText('You denied it.');
		expect(lastToolMessage().content).toBe('The user denied this tool call.');
		// The server never received the rewritten arguments.
		expect(proxy.calls).toEqual([{ name: 'echo', arguments: { message: 'first' } }]);
	} finally {
		await proxy.close();
	}
});

test('a plugin’s rewrite allowed once runs as rewritten, and the transcript and What the model received show it; the model’s own arguments stay always allowed', async ({ page }) => {
	const { proxy, name } = await alwaysAllowEchoThenRewrite(page);
	try {
		mock.script([{ type: 'tool_call', name, arguments: { message: 'third' } }, { type: 'text', text: 'Echoed the rewrite.' }]);
		await sendMessage(page, 'Echo third.');
		const dialog = page.getByRole('dialog', { name: 'Run a tool?' });
		await expect(dialog.getByLabel("The model's arguments")).toContainText('"message": "third"');
		await dialog.getByRole('button', { name: 'Allow once' }).click();
		const answer = await waitForAnswer(page);
		await expect(messageBody(answer)).toContainText('Echoed the rewrite.');
		expect(proxy.calls.at(-1)).toEqual({ name: 'echo', arguments: { message: 'REWRITTEN by the plugin' } });

		// The transcript shows what the tool ran with and who changed it; the model is told the same.
		const result = transcript(page).getByRole('article', { name: 'Tool result' }).last();
		await openToolCall(result);
		await expect(result).toContainText('Arguments changed by the plugin Argument rewriter; the tool ran with:');
		await expect(result.getByLabel('Arguments the tool ran with')).toContainText('"message": "REWRITTEN by the plugin"');
		await expect(result).toContainText('Echo: REWRITTEN by the plugin');
		const note = '[The plugin "Argument rewriter" changed the arguments of this call; the tool ran with {"message":"REWRITTEN by the plugin"}]';
		expect(lastToolMessage().content).toBe(`${note}\n\nEcho: REWRITTEN by the plugin`);
		await answer.getByRole('button', { name: 'What the model received' }).click();
		const received = page.getByRole('dialog', { name: 'What the model received' });
		const part = received.getByRole('list', { name: 'Request parts' }).getByRole('listitem').filter({ hasText: 'Tool result (arguments changed by the plugin Argument rewriter)' });
		await expect(part).toHaveCount(1);
		await expect(part).toContainText(note);
		await expect(received.getByRole('note')).toHaveCount(0);
		await received.getByRole('button', { name: 'Close' }).click();
		// post_tool_call handed the plugin the result of what ran.
		await expect(await runCommand(page, '/rewrite-args seen')).toContainText('Echo: REWRITTEN by the plugin');

		// Allowing the rewrite kept nothing: the model's own arguments run without a question, as before.
		await runCommand(page, '/rewrite-args off');
		mock.script([{ type: 'tool_call', name, arguments: { message: 'fourth' } }, { type: 'text', text: 'Echoed fourth.' }]);
		await sendMessage(page, 'Echo fourth.');
		await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed fourth.');
		await expect(dialog).toHaveCount(0);
		expect(proxy.calls.at(-1)).toEqual({ name: 'echo', arguments: { message: 'fourth' } });
		const fourth = transcript(page).getByRole('article', { name: 'Tool result' }).last();
		await openToolCall(fourth);
		await expect(fourth).toContainText('Echo: fourth');
		await expect(fourth.getByLabel('Arguments the tool ran with')).toHaveCount(0);
	} finally {
		await proxy.close();
	}
});

test('a call’s row says it waits for approval while the dialog asks, and runs once allowed or says denied once denied', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addToolServer(page, server.url);
	const name = await offeredName(page, mock, label, 'trigger-long-running-operation');
	const dialog = page.getByRole('dialog', { name: 'Run a tool?' });
	const rows = transcript(page).getByRole('group', { name: `Tool call ${name}` });
	const status = (row: typeof rows) => row.getByRole('button', { expanded: false });

	mock.script([{ type: 'tool_call', name, arguments: { duration: 30, steps: 30 } }]);
	await sendMessage(page, 'Run the long operation.');
	await expect(dialog).toBeVisible();
	await expect(status(rows.first())).toHaveText(new RegExp(`${name}\\s*waiting for approval`));
	await dialog.getByRole('button', { name: 'Allow once' }).click();
	await expect(status(rows.first())).toHaveText(new RegExp(`${name}\\s*running`));
	await expect(rows.first().getByRole('progressbar', { name: `Progress of ${name}` })).toHaveAttribute('aria-valuetext', /^\d+ of 30/);
	await page.getByRole('button', { name: 'Stop' }).click();
	await expect(status(rows.first())).toHaveText(new RegExp(`${name}\\s*stopped`));

	mock.script([{ type: 'tool_call', name, arguments: { duration: 30, steps: 30 } }, { type: 'text', text: 'You said no.' }]);
	await sendMessage(page, 'Run it again.');
	await expect(rows).toHaveCount(2);
	await expect(status(rows.last())).toHaveText(new RegExp(`${name}\\s*waiting for approval`));
	await expect(rows.last().getByRole('progressbar')).toHaveCount(0);
	await dialog.getByRole('button', { name: 'Deny' }).click();
	await expect(status(rows.last())).toHaveText(new RegExp(`${name}\\s*denied`));
	await expect(messageBody(await waitForAnswer(page))).toContainText('You said no.');
});

test('the approval dialog shows arguments whole, however long, in a box that scrolls', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addToolServer(page, server.url);
	const name = await offeredName(page, mock, label, 'echo');
	const long = `${Array.from({ length: 1_500 }, (_, i) => `word${i}`).join(' ')} END-OF-ARGUMENT`;
	expect(long.length).toBeGreaterThan(10_000);
	mock.script([{ type: 'tool_call', name, arguments: { message: long } }, { type: 'text', text: 'Echoed the long text.' }]);
	await sendMessage(page, 'Echo a long text.');
	const dialog = page.getByRole('dialog', { name: 'Run a tool?' });
	const args = dialog.getByLabel('Arguments', { exact: true });
	await expect(args).toHaveText(JSON.stringify({ message: long }, null, 2));
	await expect(args).toHaveCSS('overflow-y', 'auto');
	await expect.poll(() => args.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
	await dialog.getByRole('button', { name: 'Allow once' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed the long text.');
});
