// Tool servers (MCP) against the reference server: added in Settings, their tools offered to
// the model, each asked for before it first runs, called with progress, stopped on the server,
// and their results shown as text and sent back to the model; plugins hear of every call.
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, sendMessage, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate } from './plugin-helpers';
import { useMockProvider, usePluginOrigins, useReferenceToolServer } from './test-servers';

const mock = useMockProvider();
const server = useReferenceToolServer();
const origins = usePluginOrigins();

const SERVER_NAME = 'mcp-servers/everything';

/** Adds the reference server in Settings and waits for its row to say it is connected. */
async function addToolServer(page: Page) {
	await navigate(page, 'Settings');
	await page.getByRole('textbox', { name: 'Tool server URL' }).fill(server.url);
	await page.getByRole('button', { name: 'Add tool server' }).click();
	const row = page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem', { name: SERVER_NAME, exact: true });
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	return row;
}

/** Sends a first message with the mock provider and returns the name the model knows `tool` by. */
async function offeredName(page: Page, label: string, tool: string): Promise<string> {
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await sendMessage(page, 'What tools do you have?');
	await waitForAnswer(page);
	const tools: Array<{ function: { name: string } }> = mock.requests.at(-1)!.body.tools ?? [];
	const name = tools.map((t) => t.function.name).find((n) => n.endsWith(tool));
	expect(name, `a tool named after ${tool} among ${tools.map((t) => t.function.name).join(', ')}`).toBeTruthy();
	return name!;
}

test('a tool server added in Settings lists its tools; the model calls one after you allow it, and gets its result', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	const row = await addToolServer(page);
	await expect(row.getByRole('list', { name: `Tools of ${SERVER_NAME}` }).getByRole('listitem', { name: 'get-sum', exact: true })).toBeVisible();
	await expect(row.getByRole('switch', { name: 'Use get-sum' })).toBeChecked();

	const name = await offeredName(page, label, 'get-sum');
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
	await addPlugin(page, `${origins.cors}/lifecycle-log.js`, 'Lifecycle log');
	const row = await addToolServer(page);
	const name = await offeredName(page, label, 'echo');

	mock.script([{ type: 'tool_call', name, arguments: { message: 'first' } }, { type: 'text', text: 'Echoed once.' }]);
	await sendMessage(page, 'Echo first.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Always allow' }).click();
	await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed once.');

	mock.script([{ type: 'tool_call', name, arguments: { message: 'second' } }, { type: 'text', text: 'Echoed twice.' }]);
	await sendMessage(page, 'Echo second.');
	await expect(messageBody(await waitForAnswer(page))).toContainText('Echoed twice.');
	await expect(page.getByRole('dialog', { name: 'Run a tool?' })).toHaveCount(0);
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last()).toContainText('second');

	await navigate(page, 'Settings');
	await row.getByRole('button', { name: 'Ask again before echo runs' }).click();
	await expect(row.getByRole('button', { name: 'Ask again before echo runs' })).toHaveCount(0);
});

test('a long-running tool shows its progress, and Stop ends the turn at once and cancels the call on the server', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addToolServer(page);
	const name = await offeredName(page, label, 'trigger-long-running-operation');
	mock.script([{ type: 'tool_call', name, arguments: { duration: 30, steps: 30 } }]);
	await sendMessage(page, 'Run the long operation.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
	await expect(page.getByRole('status', { name: `Progress of ${name}` })).toContainText(/\d+ of 30/);
	const stopAt = Date.now();
	await page.getByRole('button', { name: 'Stop' }).click();
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	expect(Date.now() - stopAt).toBeLessThan(2_000);
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last()).toContainText('Tool call stopped while it ran.');
});
