// The chat header on a laptop screen (1366 × 850): the Model picker leads with the model's name,
// and a session's title shows whole, in words, also with its "(branch)" at the end.
import { expect, test, type Locator } from './test-base';
import { assistantMessages, openApp, sendAndWait } from './helpers';
import { addCustomProvider } from './plugin-helpers';
import { chooseModel, OFFLINE_LABEL } from './provider-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();
test.use({ viewport: { width: 1366, height: 850 } });

/** Whether `text`, in the select's own font, fits in the box it shows its choice in (its arrow left out). */
function fitsInSelect(select: Locator, text: string): Promise<boolean> {
	return select.evaluate((element, text) => {
		const style = getComputedStyle(element);
		const context = document.createElement('canvas').getContext('2d')!;
		context.font = style.font;
		const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
		return context.measureText(text).width <= room;
	}, text);
}

/** How much of an element's text is hidden: its overflow across and down, in px. */
function hidden(element: Locator): Promise<{ across: number; down: number }> {
	return element.evaluate((node) => ({ across: node.scrollWidth - node.clientWidth, down: node.scrollHeight - node.clientHeight }));
}

test("the Model picker shows the model's name first and readable, its provider after it, and the whole choice on hover", async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await chooseModel(page, label);
	const picker = page.getByRole('combobox', { name: 'Model', exact: true });
	const host = new URL(mock.url).host;
	await expect(picker.locator('option:checked')).toHaveText(`mock-model · Custom (OpenAI-compatible) · ${host}`);
	await expect(picker).toHaveAttribute('title', `mock-model · Custom (OpenAI-compatible) · ${host}`);
	await expect.poll(() => fitsInSelect(picker, 'mock-model · ')).toBe(true);

	await picker.selectOption({ label: OFFLINE_LABEL });
	await expect(picker.locator('option:checked')).toHaveText('offline-mini · Offline model (built-in)');
	await expect(picker).toHaveAttribute('title', 'offline-mini · Offline model (built-in)');
	await expect.poll(() => fitsInSelect(picker, 'offline-mini · ')).toBe(true);
});

test('a branch of a session with a long title shows its whole title, "(branch)" included, beside or above the model and the meter', async ({ page }) => {
	await openApp(page);
	// The picker at its widest: a provider named by its preset and host.
	await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'mock-model'));
	await sendAndWait(page, 'Plan the database migration for the billing service before Friday, with a rollback');
	await assistantMessages(page).last().getByRole('button', { name: 'Branch from here' }).click();
	const title = page.getByRole('heading', { level: 1 });
	await expect(title).toHaveText('Plan the database migration for the billing service before… (branch)');
	await expect.poll(() => hidden(title)).toEqual({ across: 0, down: 0 });
	// The model and the meter are still all on the screen.
	await expect.poll(() => hidden(page.locator('.chat-header'))).toEqual({ across: 0, down: 0 });
	await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toBeInViewport({ ratio: 1 });
	await expect(page.getByRole('button', { name: 'Compact now' })).toBeInViewport({ ratio: 1 });
});
