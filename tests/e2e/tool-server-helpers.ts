// Tool servers in the browser tests: the reference server added in Settings, and the name the
// model is offered one of its tools by.
import { expect, type Page } from './test-base';
import { sendMessage, waitForAnswer } from './helpers';
import { navigate } from './plugin-helpers';
import type { MockProvider } from '../support/mock-provider.mjs';

export const SERVER_NAME = 'mcp-servers/everything';

/** Adds the reference server (at `url`, such as a pass-through to it) in Settings and waits for its row to say it is connected. */
export async function addToolServer(page: Page, url: string) {
	await navigate(page, 'Settings');
	await page.getByRole('textbox', { name: 'Tool server URL' }).fill(url);
	await page.getByRole('button', { name: 'Add tool server' }).click();
	const row = page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem', { name: SERVER_NAME, exact: true });
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	return row;
}

/** Sends a first message with the mock provider (`label` in Model) and returns the name the model knows `tool` by. */
export async function offeredName(page: Page, mock: MockProvider, label: string, tool: string): Promise<string> {
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await sendMessage(page, 'What tools do you have?');
	await waitForAnswer(page);
	const tools: Array<{ function: { name: string } }> = mock.requests.at(-1)!.body.tools ?? [];
	const name = tools.map((t) => t.function.name).find((n) => n.endsWith(tool));
	expect(name, `a tool named after ${tool} among ${tools.map((t) => t.function.name).join(', ')}`).toBeTruthy();
	return name!;
}
