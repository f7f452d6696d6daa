// The Assistants page as a user works it: New assistant with its fields, each assistant's row and
// its actions, and the header of a chat started from one.
import { expect, type Locator, type Page } from './test-base';
import { navigate } from './plugin-helpers';

export interface AssistantValues {
	name?: string;
	/** The Model option's label; none keeps it (a new one: the model new chats use). */
	model?: string;
	prompt?: string;
	temperature?: string;
	/** One per line. */
	starters?: string;
}

export const assistantRow = (page: Page, name: string): Locator => page.getByRole('list', { name: 'Saved assistants' }).getByRole('listitem', { name, exact: true });

/** Fills what is given in an assistant's form and saves it. */
export async function fillAssistant(form: Locator, values: AssistantValues): Promise<void> {
	if (values.name !== undefined) await form.getByRole('textbox', { name: 'Name' }).fill(values.name);
	if (values.model !== undefined) await form.getByRole('combobox', { name: 'Model' }).selectOption({ label: values.model });
	if (values.prompt !== undefined) await form.getByRole('textbox', { name: 'System prompt' }).fill(values.prompt);
	if (values.temperature !== undefined) await form.getByRole('spinbutton', { name: 'Temperature' }).fill(values.temperature);
	if (values.starters !== undefined) await form.getByRole('textbox', { name: 'Starter prompts' }).fill(values.starters);
	await form.getByRole('button', { name: 'Save' }).click();
	await expect(form).toBeHidden();
}

/** Saves a new assistant through New assistant on the Assistants page (going there first). */
export async function addAssistant(page: Page, values: AssistantValues & { name: string }): Promise<void> {
	if (!/\/assistants$/.test(page.url())) await navigate(page, 'Assistants');
	await page.getByRole('button', { name: 'New assistant' }).click();
	await fillAssistant(page.getByRole('form', { name: 'New assistant' }), values);
	await expect(assistantRow(page, values.name)).toBeVisible();
}

/** "Start chat" on an assistant's row: the new chat, with the assistant named in its header. */
export async function startChat(page: Page, name: string): Promise<void> {
	if (!/\/assistants$/.test(page.url())) await navigate(page, 'Assistants');
	await assistantRow(page, name).getByRole('button', { name: 'Start chat' }).click();
	await expect(page).toHaveURL(/\/\?assistant=/);
	await expect(headerAssistant(page)).toHaveText(`Assistant: ${name}`);
}

/** The assistant a chat names in its header (its visible name, read as "Assistant: <name>"). */
export const headerAssistant = (page: Page): Locator => page.getByRole('main').getByTitle(/^Started from the assistant /);

/** The chat's header: its title, the assistant it was started from, the model and its controls. */
export const chatHeader = (page: Page): Locator => page.getByRole('main').locator('header');
