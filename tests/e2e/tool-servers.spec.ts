// Tool servers (MCP) against the reference server: added in Settings, their tools offered to
// the model, each asked for before it first runs, called with progress, stopped on the server,
// and their results shown as text and sent back to the model; plugins hear of every call. The
// approval dialog, and a plugin that changes a call's arguments: tool-approval.spec.ts.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './test-base';
import { expectNeverSentToModel, messageBody, openApp, openToolCall, sendMessage, sessionAction, sidebar, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate, readRows, runCommand } from './plugin-helpers';
import { useMockProvider, usePluginOrigins, useReferenceToolServer } from './test-servers';
import { addToolServer, offeredName, SERVER_NAME } from './tool-server-helpers';
import { startReferenceToolServer } from '../support/tool-server.mjs';

const mock = useMockProvider();
const server = useReferenceToolServer();
const origins = usePluginOrigins();

test('a tool server added in Settings lists its tools; the model calls one after you allow it, and gets its result', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	const row = await addToolServer(page, server.url);
	await expect(row.getByRole('list', { name: `Tools of ${SERVER_NAME}` }).getByRole('listitem', { name: 'get-sum', exact: true })).toBeVisible();
	await expect(row.getByRole('switch', { name: 'Use get-sum' })).toBeChecked();

	const name = await offeredName(page, mock, label, 'get-sum');
	// The server's instructions are part of the system prompt, under its name.
	const system = mock.requests.at(-1)!.body.messages[0];
	expect(system.role).toBe('system');
	expect(system.content).toContain(`Instructions from the tool server "${SERVER_NAME}"`);

	mock.script([{ type: 'tool_call', name, arguments: { a: 2, b: 3 } }, { type: 'text', text: 'The sum is 5.' }]);
	await sendMessage(page, 'Add 2 and 3 with your tool.');
	const dialog = page.getByRole('dialog', { name: 'Run a tool?' });
	await expect(dialog).toContainText('get-sum');
	await expect(dialog).toContainText(SERVER_NAME);
	await dialog.getByRole('button', { name: 'Allow once' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('The sum is 5.');
	const result = transcript(page).getByRole('article', { name: 'Tool result' }).last();
	await expect(result).toContainText(`From the tool server ${SERVER_NAME}`);
	await expect(result).toContainText('The sum of 2 and 3 is 5.');
	// The model was sent the result in the next request.
	const toolMessage = mock.requests.at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool');
	expect(toolMessage.content).toContain('The sum of 2 and 3 is 5.');

	// Allowed once only: the next call asks again, and a denial is the model's answer.
	mock.script([{ type: 'tool_call', name, arguments: { a: 1, b: 1 } }, { type: 'text', text: 'You said no.' }]);
	await sendMessage(page, 'And 1 and 1?');
	await dialog.getByRole('button', { name: 'Deny' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('You said no.');
	const denied = mock.requests.at(-1)!.body.messages.findLast((m: { role: string }) => m.role === 'tool');
	expect(denied.content).toBe('The user denied this tool call.');
});

test('Always allow runs the tool from then on without asking; its row takes it back; plugins see the server by name', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addPlugin(page, `${origins.cors}/tool-watch.js`, 'Tool watch');
	const row = await addToolServer(page, server.url);
	const name = await offeredName(page, mock, label, 'echo');

	mock.script([{ type: 'tool_call', name, arguments: { message: 'first' } }, { type: 'text', text: 'Echoed once.' }]);
	await sendMessage(page, 'Echo first.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Always allow' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed once.');

	mock.script([{ type: 'tool_call', name, arguments: { message: 'second' } }, { type: 'text', text: 'Echoed twice.' }]);
	await sendMessage(page, 'Echo second.');
	await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed twice.');
	await expect(page.getByRole('dialog', { name: 'Run a tool?' })).toHaveCount(0);
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last()).toContainText('second');

	// Plugins heard of both calls, with the server's name and nothing else of it.
	const seen = await runCommand(page, '/tool-calls');
	const fields = '[args,server,session_id,tool_name]';
	await expect(seen).toContainText(`pre ${name} from ${SERVER_NAME} ${fields}`);
	await expect(seen).toContainText(`post ${name} from ${SERVER_NAME} [args,duration_ms,result,server,session_id,tool_name]`);

	await navigate(page, 'Settings');
	await row.getByRole('button', { name: 'Ask again before echo runs' }).click();
	await expect(row.getByRole('button', { name: 'Ask again before echo runs' })).toHaveCount(0);
	// Asked again from then on.
	await navigate(page, 'Chat');
	mock.script([{ type: 'tool_call', name, arguments: { message: 'third' } }, { type: 'text', text: 'Asked.' }]);
	await sendMessage(page, 'Echo third.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('Asked.');
});

test('an image a tool returns is shown in the transcript, sent to the model in the wire format’s own way, and deleted with its session', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addToolServer(page, server.url);
	const name = await offeredName(page, mock, label, 'get-tiny-image');

	mock.script([{ type: 'tool_call', name, arguments: {} }, { type: 'text', text: 'A tiny image.' }]);
	await sendMessage(page, 'Show me a tiny image.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('A tiny image.');
	await openToolCall(transcript(page).getByRole('article', { name: 'Tool result' }).last());
	const image = transcript(page).getByRole('article', { name: 'Tool result' }).last().getByRole('img', { name: /^Image the tool returned \(image\/png, \d+ × \d+\)$/ });
	await expect(image).toBeVisible();
	// Decoded from the stored bytes, not a broken picture.
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

	// Chat Completions: the tool message stays text, and a user message after it carries the image.
	const messages: Array<{ role: string; content: unknown; tool_call_id?: string }> = mock.requests.at(-1)!.body.messages;
	const at = messages.findIndex((m) => m.role === 'tool');
	expect(messages[at].content).toMatch(/\[image: image\/png, \d+ (KB|bytes?)\]/);
	const carried = messages[at + 1];
	expect(carried.role).toBe('user');
	expect(JSON.stringify(carried.content)).toMatch(/"image_url":\{"url":"data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/=]+"\}/);

	// What the model received is the request as sent, its image named rather than spelled out.
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	await expect(received.getByLabel('Request body')).toContainText('of image data, left out here; Copy as curl has it');
	await expect(received.getByRole('note')).toHaveCount(0);
	await received.getByRole('button', { name: 'Close' }).click();

	await expect.poll(() => readRows(page, 'palimpsest-default', 'blobs')).toHaveLength(1);
	await sessionAction(page, sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'What tools do you have?', exact: true }) }), 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect.poll(async () => (await readRows(page, 'palimpsest-default', 'blobs')).length).toBe(0);
});

test('a long-running tool shows its progress, and Stop ends the turn at once and cancels the call on the server', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addToolServer(page, server.url);
	const name = await offeredName(page, mock, label, 'trigger-long-running-operation');
	mock.script([{ type: 'tool_call', name, arguments: { duration: 30, steps: 30 } }]);
	await sendMessage(page, 'Run the long operation.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
	// The call's row, closed, shows it running with its progress as a bar.
	const row = transcript(page).getByRole('group', { name: `Tool call ${name}` });
	await expect(row.getByRole('button', { expanded: false })).toHaveText(new RegExp(`${name}\\s*running`));
	await expect(row.getByRole('progressbar', { name: `Progress of ${name}` })).toHaveAttribute('aria-valuetext', /^\d+ of 30/);
	await expect(row.getByRole('progressbar', { name: `Progress of ${name}` })).toHaveAttribute('max', '30');
	const stopAt = Date.now();
	await page.getByRole('button', { name: 'Stop' }).click();
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	expect(Date.now() - stopAt).toBeLessThan(2_000);
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last()).toContainText('Tool call stopped while it ran.');
	await expect(row.getByRole('button', { expanded: false })).toHaveText(new RegExp(`${name}\\s*stopped`));
	await expect(row.getByRole('progressbar')).toHaveCount(0);
});

/** Sets a number field of Settings → Context and compaction (saved on change). */
async function setNumber(page: Page, label: string, value: number): Promise<void> {
	const field = page.getByRole('spinbutton', { name: label });
	await field.fill(String(value));
	await field.blur();
	await expect(field).toHaveValue(String(value));
}

test('a large tool result prunes older ones after the tool ran (post_tool), once; the stub shows the full result on request', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await page.getByRole('combobox', { name: 'Model name' }).fill('mock-model');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill('16000');
	await page.getByRole('button', { name: 'Set window' }).click();
	await expect(page.getByText('mock-model: 16,000 tokens')).toBeVisible();
	// Only the pass after a tool prunes here: the idle pass never frees that much.
	await setNumber(page, 'Recent context always kept (tokens)', 500);
	await setNumber(page, 'Prune old tool outputs once that frees (tokens)', 1_000_000);
	await addToolServer(page, server.url);
	const name = await offeredName(page, mock, label, 'echo');
	const allow = () => page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Always allow' }).click();

	// About 2,250 tokens each, counted twice (the call's arguments and its result), on top of some
	// 4,900 (system prompt, the server's tools and instructions, the room kept for the answer): the
	// first call leaves the request near 9,500 of the 12,800 where it compacts; the second takes it
	// near 14,000, and pruning the first result brings it back near 11,700.
	const words = (tag: string) => Array.from({ length: 2_250 }, () => tag).join(' ');
	mock.script([{ type: 'tool_call', name, arguments: { message: words('alpha') } }, { type: 'text', text: 'First echoed.' }]);
	await sendMessage(page, 'Echo the first long text.');
	await allow();
	await expect(messageBody(await waitForAnswer(page))).toContainText('First echoed.');
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' })).toHaveCount(0);

	mock.script([{ type: 'tool_call', name, arguments: { message: words('beta') } }, { type: 'text', text: 'Second echoed.' }]);
	await sendMessage(page, 'Echo the second long text.');
	await expect(messageBody(await waitForAnswer(page))).toContainText('Second echoed.');
	// The first result became a stub in the request that followed the second tool call.
	const lastRequest = mock.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'tool');
	expect(lastRequest[0].content).toMatch(/^\[Tool output pruned: [\d,]+ tokens of output from /);
	expect(lastRequest[1].content).toContain('beta beta');

	const stub = transcript(page).getByRole('article', { name: 'Tool result' }).filter({ hasText: 'Tool output pruned' });
	await expect(stub).toHaveCount(1);
	await openToolCall(stub);
	await stub.getByRole('button', { name: 'Show full result' }).click();
	await expect(stub.getByLabel('Full result')).toContainText('alpha alpha');
	await stub.getByRole('button', { name: 'Hide full result' }).click();
	await expect(stub.getByLabel('Full result')).toHaveCount(0);

	await navigate(page, 'Plugins');
	const fired = page.getByRole('region', { name: 'Hook log' }).getByRole('row').filter({ has: page.getByRole('cell', { name: 'post_compaction', exact: true }) });
	await expect(fired).toHaveCount(1);
	await expect(fired).toContainText('prune_tool_results');
	await expect(fired).toContainText('post_tool');
});

test('a tool server’s Authorization reaches that server only: never exported, shown, logged, in a request to the model or given to a plugin', async ({ page }) => {
	const SECRET = 'Bearer tool-server-SENTINEL-5521';
	const logged: string[] = [];
	page.on('console', (message) => logged.push(message.text()));
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addPlugin(page, `${origins.cors}/tool-watch.js`, 'Tool watch');
	await navigate(page, 'Settings');
	await page.getByRole('textbox', { name: 'Tool server URL' }).fill(server.url);
	const authorization = page.getByRole('textbox', { name: 'Authorization' });
	await expect(authorization).toHaveAttribute('type', 'password');
	await authorization.fill(SECRET);
	await page.getByRole('button', { name: 'Add tool server' }).click();
	const row = page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem', { name: SERVER_NAME, exact: true });
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	await expect(row).not.toContainText(SECRET);

	const name = await offeredName(page, mock, label, 'get-sum');
	mock.script([{ type: 'tool_call', name, arguments: { a: 4, b: 5 } }, { type: 'text', text: 'Nine.' }]);
	await sendMessage(page, 'Add 4 and 5.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Nine.');

	// Nothing the model was sent, nor its view and curl, carries it.
	await expectNeverSentToModel(page, answer, mock.requests, 'SENTINEL');
	// Plugins got the server's name and nothing else of it.
	await expect(await runCommand(page, '/tool-calls')).not.toContainText('SENTINEL');
	// The export holds sessions, never settings.
	await navigate(page, 'Settings');
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export', exact: true }).click();
	const file = await (await download).path();
	expect(await readFile(file, 'utf8')).not.toContain('SENTINEL');
	expect(logged.join('\n')).not.toContain('SENTINEL');
});

test('a tool server that goes away has its call fail with the reason, its row says so and its tools leave the request; it connects again once back', async ({ page }) => {
	const own = await startReferenceToolServer();
	try {
		await openApp(page);
		const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
		await navigate(page, 'Settings');
		await page.getByRole('textbox', { name: 'Tool server URL' }).fill(own.url);
		await page.getByRole('button', { name: 'Add tool server' }).click();
		const row = page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem', { name: SERVER_NAME, exact: true });
		await expect(row.getByText('Connected', { exact: true })).toBeVisible();
		const name = await offeredName(page, mock, label, 'get-sum');
		await own.close();

		mock.script([{ type: 'tool_call', name, arguments: { a: 1, b: 2 } }, { type: 'text', text: 'It failed.' }]);
		await sendMessage(page, 'Add 1 and 2.');
		await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
		await expect(messageBody(await waitForAnswer(page))).toContainText('It failed.');
		const failed = mock.requests.at(-1)!.body.messages.findLast((m: { role: string }) => m.role === 'tool');
		expect(failed.content).toMatch(/^Tool error: The tool server failed/);

		// The turn goes on without the server's tools.
		await sendMessage(page, 'Anything else?');
		await waitForAnswer(page);
		expect((mock.requests.at(-1)!.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name)).not.toContain(name);
		await navigate(page, 'Settings');
		await expect(row.getByText('Not connected', { exact: true })).toBeVisible();
		await expect(row.getByRole('alert')).toContainText('cannot be reached');

		// Back on the same address: tried again on its own.
		const back = await startReferenceToolServer({ port: Number(new URL(own.url).port) });
		try {
			await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 20_000 });
		} finally {
			await back.close();
		}
	} finally {
		await own.close();
	}
});
