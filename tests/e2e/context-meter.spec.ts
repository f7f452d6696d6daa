// The Context usage meter and /usage give the same number, from commands alone to a chat;
// clicking the meter shows what the number is made of and the session's compactions, and a
// compaction is described in one wording wherever it shows.
import { expect, test, type Locator, type Page } from './test-base';
import { numberIn, openApp, sendAndWait, transcript } from './helpers';
import { addCustomProvider, navigate, runCommand } from './plugin-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();

const meter = (page: Page) => page.getByRole('status', { name: 'Context usage' });

/** The estimated tokens the meter shows ("1,234 / 32,000 tokens (…)"), once it shows a count. */
function meterTokens(page: Page): Promise<number> {
	return numberIn(meter(page), /([\d,]+) \/ [\d,]+ tokens/);
}

/** Each part's count in the open details, once counted (the parts show all at once). */
async function partCounts(details: Locator): Promise<number[]> {
	const parts = details.getByRole('definition');
	await expect(parts.first()).toHaveText(/^[\d,]+$/);
	return (await parts.allTextContents()).map((text) => Number(text.replaceAll(',', '')));
}

/** Opens the meter's details and reads each part's count once counted. */
async function breakdown(page: Page): Promise<number[]> {
	await meter(page).getByRole('button', { name: / tokens \(/ }).click();
	return partCounts(page.getByRole('dialog', { name: 'Context usage' }));
}

/** The total /usage prints ("Estimated context: 3,217 of 32,000 tokens (…)"). */
async function usageTokens(page: Page): Promise<number> {
	return numberIn(await runCommand(page, '/usage'), /Estimated context: ([\d,]+) of [\d,]+ tokens/);
}

test('the meter and /usage agree after commands only and after a chat', async ({ page }) => {
	await openApp(page);
	// A new session already costs its system prompt and the space kept for the answer.
	await expect.poll(() => meterTokens(page)).toBeGreaterThan(1000);
	const empty = await meterTokens(page);

	// The first thing typed is a command: it begins no session, and /usage counts the new chat's first request.
	await runCommand(page, '/help');
	await expect(page).toHaveURL(/\/$/);
	const afterCommands = await usageTokens(page);
	expect(afterCommands).toBe(empty);
	await expect.poll(() => meterTokens(page)).toBe(afterCommands);

	await sendAndWait(page, 'Hi there');
	await expect.poll(() => meterTokens(page)).toBeGreaterThan(afterCommands);
	const afterChat = await usageTokens(page);
	await expect.poll(() => meterTokens(page)).toBe(afterChat);
});

test('clicking the meter shows what the context holds, part by part, and the compactions; one wording for what a compaction folded', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	const total = await usageTokens(page);

	await meter(page).getByRole('button', { name: / tokens \(/ }).click();
	const details = page.getByRole('dialog', { name: 'Context usage' });
	await expect(details).toBeVisible();
	await expect(details).toContainText(`${total.toLocaleString('en')} of 32,000 tokens`);
	const labels = details.getByRole('term');
	await expect(labels).toHaveText(['System prompt and tools', /^Messages \(\d+\)$/, 'Plugin context', 'Kept for the answer']);
	await expect(details.getByRole('definition').nth(3)).toHaveText('3,200');
	const counts = await partCounts(details);
	// The parts add up to the total (the offline model counts with the app's own tokenizer).
	expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
	await expect(details).toContainText('None yet.');

	await details.getByRole('button', { name: 'Compact now' }).click();
	await expect(details).toBeHidden();
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await expect(marker).toHaveCount(1);
	const result = page.getByRole('status', { name: 'Compaction result' });
	await expect(result).toContainText(/Context compacted from [\d,]+ to [\d,]+ tokens, \d+ messages? folded\./);
	await expect(marker).toContainText(/\d+ messages? folded/);
	// The word on the compaction leaves by itself, and the header keeps the title's room meanwhile.
	await expect(result).toBeHidden({ timeout: 15_000 });

	await meter(page).getByRole('button', { name: / tokens \(/ }).click();
	const list = details.getByRole('list', { name: 'Compactions in this session' });
	await expect(list.getByRole('listitem')).toHaveCount(1);
	await expect(list).toContainText(/you asked for it · [\d,]+ → [\d,]+ tokens · \d+ messages? folded/);
	await page.keyboard.press('Escape');
	await expect(details).toBeHidden();
	await expect(meter(page).getByRole('button', { name: / tokens \(/ })).toBeFocused();
});

test('an empty chat names what its count is made of, and the parts add up to the meter', async ({ page }) => {
	await openApp(page);
	await expect.poll(() => meterTokens(page)).toBeGreaterThan(1000);
	const counts = await breakdown(page);
	const details = page.getByRole('dialog', { name: 'Context usage' });
	await expect(details.getByRole('term')).toHaveText(['System prompt and tools', 'Messages (0)', 'Plugin context', 'Kept for the answer']);
	await expect(details.getByRole('definition').nth(1)).toHaveText('0');
	expect(counts[0]).toBeGreaterThan(0);
	await expect.poll(() => meterTokens(page)).toBe(counts.reduce((a, b) => a + b, 0));
	await expect(details).toContainText('Before the first message, a request already holds the system prompt and tools');
});

test("once a provider reported its own count, the parts still add up to the meter's number", async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	// A small window, so the turn counts its request exactly (and compares the provider's count with it).
	await page.getByRole('combobox', { name: 'Model name' }).fill('mock-model');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill('2000');
	await page.getByRole('button', { name: 'Set window' }).click();
	await expect(page.getByText('mock-model: 2,000 tokens')).toBeVisible();
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	// The provider counts the request differently from this app: the estimate is scaled to its count from then on.
	mock.script([{ type: 'text', text: 'They did, every night.', usage: { input_tokens: 700, output_tokens: 6 } }]);
	await sendAndWait(page, `Tell me about lighthouses. ${'The keepers trimmed the wicks every night. '.repeat(45)}`);
	const counts = await breakdown(page);
	const details = page.getByRole('dialog', { name: 'Context usage' });
	await expect(details).toContainText("Adjusted to the provider's own count");
	const sum = counts.reduce((a, b) => a + b, 0);
	await expect(details).toContainText(`${sum.toLocaleString('en')} of 2,000 tokens`);
	await expect.poll(() => meterTokens(page)).toBe(sum);
});
