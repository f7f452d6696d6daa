// Saved prompts in a real browser: the Prompts page (New prompt, Edit, Delete), `/<name>` in the
// Message box's slash menu with its {{variables}} asked for first, prompts kept across a reload,
// carried by an export into another profile, and the page checked with axe.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './test-base';
import { openApp } from './helpers';
import { expectNoSeriousIssues } from './accessibility';
import { navigate } from './plugin-helpers';
import { createProfile } from './profile-helpers';
import { writeStoreRows } from './seed-rows';

/** Saves a prompt through New prompt on the Prompts page (going there first). */
async function addPrompt(page: Page, name: string, text: string): Promise<void> {
	if (!/\/prompts$/.test(page.url())) await navigate(page, 'Prompts');
	await page.getByRole('button', { name: 'New prompt' }).click();
	const form = page.getByRole('form', { name: 'New prompt' });
	await form.getByRole('textbox', { name: 'Name' }).fill(name);
	await form.getByRole('textbox', { name: 'Text' }).fill(text);
	await form.getByRole('button', { name: 'Save' }).click();
	await expect(form).toBeHidden();
	await expect(promptRow(page, name)).toBeVisible();
}

const promptRow = (page: Page, name: string) => page.getByRole('list', { name: 'Saved prompts' }).getByRole('listitem', { name: `/${name}`, exact: true });
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const slashMenu = (page: Page) => page.getByRole('listbox', { name: 'Commands' });

test('a saved prompt is /<name> in the slash menu: its variables are asked for first, in order, then its text fills the Message box', async ({ page }) => {
	await openApp(page);
	await addPrompt(page, 'translate', 'Translate {{text}} into {{ language }}. Keep {{text}} short.');
	await addPrompt(page, 'brief', 'Answer in one short paragraph.');

	await navigate(page, 'Chat');
	const box = messageBox(page);
	await box.pressSequentially('/b');
	const option = slashMenu(page).getByRole('option', { name: /\/brief/ });
	await expect(option).toContainText('Prompt');
	await box.press('Enter');
	await expect(box).toHaveValue('Answer in one short paragraph.');
	await expect(slashMenu(page)).toBeHidden();

	await box.fill('');
	await box.pressSequentially('/tr');
	await expect(slashMenu(page).getByRole('option', { name: /\/translate/ })).toContainText('Prompt');
	await box.press('Enter');
	const dialog = page.getByRole('dialog', { name: 'Fill in /translate' });
	await expect(dialog).toBeVisible();
	// One field per variable, in the order the text names them; the first has the focus.
	await expect(dialog.getByRole('textbox')).toHaveCount(2);
	await expect(dialog.getByRole('textbox').first()).toHaveAccessibleName('text');
	await expect(dialog.getByRole('textbox', { name: 'text' })).toBeFocused();
	await page.keyboard.type('Bonjour à tous');
	await page.keyboard.press('Tab');
	await expect(dialog.getByRole('textbox', { name: 'language' })).toBeFocused();
	await page.keyboard.type('English ($1)');
	await page.keyboard.press('Enter');
	await expect(dialog).toBeHidden();
	await expect(box).toHaveValue('Translate Bonjour à tous into English ($1). Keep Bonjour à tous short.');
	await expect(box).toBeFocused();

	// Escape leaves the box as it was; so does Cancel.
	await box.fill('');
	await box.pressSequentially('/translate');
	await box.press('Enter');
	await expect(dialog).toBeVisible();
	await page.keyboard.type('lost');
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();
	await expect(box).toHaveValue('/translate');
	await box.press('Enter');
	await dialog.getByRole('button', { name: 'Cancel' }).click();
	await expect(box).toHaveValue('/translate');
	// Nothing was sent: this was no command, and no session began.
	await expect(page).toHaveURL(/\/$/);
});

test('a name is lowercase letters, digits and dashes, never a command’s or another prompt’s; the text is required', async ({ page }) => {
	await openApp(page);
	await addPrompt(page, 'fix-grammar', 'Fix the grammar of {{text}}.');
	await page.getByRole('button', { name: 'New prompt' }).click();
	const form = page.getByRole('form', { name: 'New prompt' });
	const name = form.getByRole('textbox', { name: 'Name' });
	const save = form.getByRole('button', { name: 'Save' });
	await form.getByRole('textbox', { name: 'Text' }).fill('Some text');
	for (const [typed, error] of [
		['help', '“/help” is a command: choose another name.'],
		['Fix Grammar', 'lowercase letters, digits and dashes'],
		['fix-grammar', 'A prompt named “fix-grammar” exists already']
	] as const) {
		await name.fill(typed);
		await save.click();
		await expect(form.getByRole('alert')).toContainText(error);
	}
	await name.fill('fine');
	await form.getByRole('textbox', { name: 'Text' }).fill('   ');
	await save.click();
	await expect(form.getByRole('alert')).toHaveText('A prompt needs some text.');
	// Escape closes the form, and nothing was saved.
	await name.press('Escape');
	await expect(form).toBeHidden();
	await expect(page.getByRole('list', { name: 'Saved prompts' }).getByRole('listitem')).toHaveCount(1);
});

test('prompts survive a reload; Edit changes one; Delete asks first, and Escape keeps it', async ({ page }) => {
	await openApp(page);
	await addPrompt(page, 'outline', 'Outline {{topic}}.');
	await page.reload();
	const row = promptRow(page, 'outline');
	await expect(row).toContainText('Outline {{topic}}.');
	await expect(row).toContainText('Asks for topic');

	await row.getByRole('button', { name: 'Edit' }).click();
	const form = page.getByRole('form', { name: 'Edit /outline' });
	await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('outline');
	await form.getByRole('textbox', { name: 'Name' }).fill('plan');
	await form.getByRole('textbox', { name: 'Text' }).fill('Plan {{goal}} in {{steps}} steps.');
	await form.getByRole('button', { name: 'Save' }).click();
	await expect(promptRow(page, 'plan')).toContainText('Asks for goal, steps');
	await expect(promptRow(page, 'outline')).toHaveCount(0);

	await promptRow(page, 'plan').getByRole('button', { name: 'Delete' }).click();
	const confirm = page.getByRole('dialog', { name: 'Delete this prompt?' });
	await expect(confirm).toContainText('/plan');
	await page.keyboard.press('Escape');
	await expect(confirm).toBeHidden();
	await expect(promptRow(page, 'plan')).toBeVisible();
	await promptRow(page, 'plan').getByRole('button', { name: 'Delete' }).click();
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(promptRow(page, 'plan')).toHaveCount(0);
	await expect(page.getByText('No prompts yet.')).toBeVisible();

	// Gone from the slash menu too.
	await navigate(page, 'Chat');
	await messageBox(page).pressSequentially('/pl');
	await expect(slashMenu(page)).toBeHidden();
});

test('axe finds no serious or critical issue on the Prompts page, its form open', async ({ page }) => {
	await openApp(page);
	await addPrompt(page, 'translate', 'Translate {{text}} into {{language}}.');
	await expectNoSeriousIssues(page);
	await page.getByRole('button', { name: 'New prompt' }).click();
	await expect(page.getByRole('form', { name: 'New prompt' })).toBeVisible();
	await expectNoSeriousIssues(page);
});

test('prompts go with an export of every session and come back with its import, in another profile', async ({ page }) => {
	const dir = await mkdtemp(join(tmpdir(), 'palimpsest-prompts-'));
	try {
		await openApp(page);
		await addPrompt(page, 'translate', 'Translate {{text}} into {{language}}.');
		await addPrompt(page, 'brief', 'Be brief.');
		await navigate(page, 'Settings');
		const status = page.getByRole('status', { name: 'Transfer status' });
		const download = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export', exact: true }).click();
		const file = await download;
		const path = join(dir, file.suggestedFilename());
		await file.saveAs(path);
		await expect(status).toHaveText(`Exported 0 sessions (0 messages) and 2 prompts as JSON: ${file.suggestedFilename()}`);
		expect(JSON.parse(await readFile(path, 'utf8')).prompts.map((prompt: { name: string }) => prompt.name)).toEqual(['brief', 'translate']);

		await createProfile(page, 'Elsewhere');
		await navigate(page, 'Prompts');
		await expect(page.getByText('No prompts yet.')).toBeVisible();
		await navigate(page, 'Settings');
		const chooser = page.waitForEvent('filechooser');
		await page.getByRole('button', { name: 'Import', exact: true }).click();
		await (await chooser).setFiles(path);
		await expect(status).toHaveText('Imported 2 prompts.');
		await navigate(page, 'Prompts');
		await expect(promptRow(page, 'translate')).toContainText('Asks for text, language');
		await expect(promptRow(page, 'brief')).toBeVisible();
		await navigate(page, 'Chat');
		await messageBox(page).pressSequentially('/bri');
		await messageBox(page).press('Enter');
		await expect(messageBox(page)).toHaveValue('Be brief.');
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
});

test('two prompts of one name (saved on two devices before they synced): /<name> gives the earlier, and the page says so', async ({ page }) => {
	await openApp(page);
	await addPrompt(page, 'brief', 'Be brief (the earlier one).');
	// The later one, as sync would bring it: written straight into the profile's database.
	await page.evaluate(
		() =>
			new Promise<void>((resolve, reject) => {
				const open = indexedDB.open('palimpsest-default');
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const tx = open.result.transaction('prompts', 'readwrite');
					tx.objectStore('prompts').add({ id: 'zzz-from-the-phone', name: 'brief', text: 'Be brief (the later one).', created_at: Date.now() + 60_000, updated_at: Date.now() + 60_000 });
					tx.oncomplete = () => {
						open.result.close();
						resolve();
					};
					tx.onerror = () => reject(tx.error);
				};
			})
	);
	await page.reload();
	const rows = page.getByRole('list', { name: 'Saved prompts' }).getByRole('listitem', { name: '/brief', exact: true });
	await expect(rows).toHaveCount(2);
	await expect(rows.first()).not.toContainText('Another prompt has this name');
	await expect(rows.last()).toContainText('Another prompt has this name, and /brief gives that one: rename one of them.');
	await navigate(page, 'Chat');
	await messageBox(page).pressSequentially('/brief');
	await expect(slashMenu(page).getByRole('option')).toHaveCount(1);
	await messageBox(page).press('Enter');
	await expect(messageBox(page)).toHaveValue('Be brief (the earlier one).');
});

test('with many prompts, the first "/" lists them at once (their names were read after start-up), fifty at most with how many more, and typing narrows them', async ({ page }) => {
	await openApp(page);
	const now = Date.now();
	const n = (i: number) => String(i).padStart(2, '0');
	await writeStoreRows(page, { prompts: Array.from({ length: 70 }, (_, i) => ({ id: `p-${n(i)}`, name: `prompt-${n(i)}`, text: `Prompt ${n(i)}.`, created_at: now, updated_at: now })) });
	await openApp(page);
	// Read in idle time, before any "/": the menu's first frame lists prompts.
	await expect.poll(() => page.evaluate(() => performance.getEntriesByName('palimpsest:prompt-names-read').length)).toBeGreaterThan(0);
	await page.evaluate(() => {
		const observer = new MutationObserver(() => {
			const menu = document.querySelector('[role="listbox"][aria-label="Commands"]');
			if (!menu) return;
			observer.disconnect();
			(window as unknown as { promptsAtFirst: number }).promptsAtFirst = menu.querySelectorAll('[role="option"] .kind').length;
		});
		observer.observe(document, { childList: true, subtree: true });
	});
	await messageBox(page).press('/');
	const options = slashMenu(page).getByRole('option');
	await expect(options).toHaveCount(50);
	await expect.poll(() => page.evaluate(() => (window as unknown as { promptsAtFirst?: number }).promptsAtFirst)).toBeGreaterThan(0);
	// Seventy prompts and the built-in commands match "/": fifty are listed, and the menu says how many more.
	const more = page.getByText(/^\d+ more: type more of the name\.$/);
	await expect(more).toBeVisible();
	await expect(options.first()).toHaveAttribute('aria-setsize', /^\d+$/);
	await messageBox(page).pressSequentially('prompt-6');
	await expect(options).toHaveCount(10);
	await expect(more).toBeHidden();
	await expect(options.first()).toContainText('/prompt-60');
	await messageBox(page).press('ArrowUp');
	await messageBox(page).press('Enter');
	await expect(messageBox(page)).toHaveValue('Prompt 69.');
});
