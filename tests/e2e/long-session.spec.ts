// A long session opens with its latest messages only (rendering hundreds of answers at once
// would hold the page for seconds); earlier ones come a page at a time, drawn a few rows at a
// time, and none is lost.
import { expect, test, type Page } from './test-base';
import { openApp, sendAndWait, transcript } from './helpers';
import { writeRows } from './seed-rows';

const PAIRS = 150;

/** One session whose messages are `contents` (questions and answers in turn), written straight into IndexedDB. */
async function seedSession(page: Page, id: string, contents: string[]): Promise<string> {
	await writeRows(page, [{ id, title: `Session ${id}`, messages: contents.length }], contents.map((content, seq) => ({ session: id, seq, content })));
	return id;
}

/** Question n and its short answer, for n in 0 … pairs - 1. */
const shortPairs = (pairs: number) => Array.from({ length: pairs * 2 }, (_, i) => (i % 2 ? `Answer number ${(i - 1) / 2}, with **Markdown**.` : `Question number ${i / 2}`));

/** An answer of the size and kinds models write: headings, a list, a table and highlighted code. */
function richAnswer(n: number): string {
	const code = Array.from({ length: 12 }, (_, line) => `const value${line} = compute(${n}, ${line}); // step ${line}`).join('\n');
	const prose = 'The importer reads every row before the transaction commits, so the page never blocks. '.repeat(4);
	return `## Answer ${n}\n\n${prose}\n\n- first point\n- second point with \`inline code\`\n\n| step | cost |\n|---|---|\n| read | ${n} ms |\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAnswer ${n} ends here.`;
}

const atBottom = (page: Page) => transcript(page).evaluate((log) => log.scrollHeight - log.scrollTop - log.clientHeight < 48);

test('a long session shows its latest messages first, and earlier ones on request or when scrolled to', async ({ page }) => {
	test.slow();
	await openApp(page);
	const id = await seedSession(page, 'long-session', shortPairs(PAIRS));
	await page.goto(`/s/${id}`);
	const log = transcript(page);
	await expect(log.getByText('Question number 149', { exact: true })).toBeVisible();
	await expect(log.getByRole('article')).toHaveCount(40);
	const earlier = log.getByRole('button', { name: /^Show earlier messages/ });
	await expect(earlier).toHaveText('Show earlier messages (260)');
	await earlier.click();
	await expect(log.getByRole('article')).toHaveCount(80);
	// Scrolling to the top brings the next page on its own.
	await log.evaluate((node) => node.scrollTo({ top: 0 }));
	await expect(log.getByRole('article')).toHaveCount(120);
	// Page after page (each is drawn a few rows at a time, the button moving up as they come).
	await expect(async () => {
		if (await earlier.count()) await earlier.click({ timeout: 5000 });
		await expect(log.getByRole('article')).toHaveCount(PAIRS * 2, { timeout: 1000 });
	}).toPass({ timeout: 60_000 });
	await expect(log.getByText('Question number 0', { exact: true })).toBeAttached();
});

test('a big session opens at its last answer, keeps the reader in place while earlier answers are drawn, and scrolls back to its first question', async ({ page }) => {
	test.slow();
	await openApp(page);
	const pairs = 100;
	const contents = Array.from({ length: pairs * 2 }, (_, i) => (i % 2 ? richAnswer((i - 1) / 2) : `Question number ${i / 2}`));
	const id = await seedSession(page, 'big-session', contents);
	await page.goto(`/s/${id}`);
	const log = transcript(page);
	await expect(log.getByRole('article')).toHaveCount(40);
	await expect(log.getByText(`Answer ${pairs - 1} ends here.`)).toBeInViewport();
	await expect.poll(() => atBottom(page)).toBe(true);
	await expect(log.getByRole('heading', { name: `Answer ${pairs - 1}` })).toBeVisible();

	// The reader is at the top of what is drawn: what they look at stays put as the next page
	// is drawn above it, slice after slice.
	const earlier = log.getByRole('button', { name: /^Show earlier messages/ });
	await earlier.click();
	const reading = log.getByText(`Question number ${pairs - 20}`, { exact: true });
	const top = async () => (await reading.boundingBox())?.y;
	const before = await top();
	// At least the next page; a slow machine may reach the top sentinel while it is drawn and
	// bring one more, which must keep the reader in place just the same.
	await expect.poll(() => log.getByRole('article').count()).toBeGreaterThanOrEqual(80);
	await expect.poll(async () => Math.abs((await top())! - before!)).toBeLessThan(2);

	// Scrolling up, page after page, reaches the first question.
	await expect(async () => {
		await log.evaluate((node) => node.scrollTo({ top: 0 }));
		await expect(log.getByText('Question number 0', { exact: true })).toBeInViewport({ timeout: 1000 });
	}).toPass({ timeout: 60_000 });
	await expect(log.getByRole('article')).toHaveCount(pairs * 2);
	// Rows above the latest page are laid out and painted only near the screen (drawing each
	// slice above must not touch every row already there); the latest page always is.
	const visibility = () => log.getByRole('article').evaluateAll((rows) => rows.map((row) => getComputedStyle(row).contentVisibility));
	await expect.poll(async () => (await visibility()).slice(-40)).toEqual(Array(40).fill('visible'));
	await expect.poll(async () => new Set((await visibility()).slice(0, -40))).toEqual(new Set(['auto']));
	await log.evaluate((node) => node.scrollTo({ top: node.scrollHeight }));
	await expect(log.getByText(`Answer ${pairs - 1} ends here.`)).toBeInViewport();
});

test('a message sent in a short session is drawn under the others, which stay as they are', async ({ page }) => {
	await openApp(page);
	const id = await seedSession(page, 'short-session', shortPairs(5));
	await page.goto(`/s/${id}`);
	const log = transcript(page);
	await expect(log.getByRole('article')).toHaveCount(10);
	// The first row's element, marked: a row taken off the page and drawn again would be a new one.
	await log.getByRole('article').first().evaluate((node) => node.setAttribute('data-marked', ''));
	await sendAndWait(page, 'One more question');
	await expect(log.getByRole('article')).toHaveCount(12);
	await expect(log.getByRole('article').first()).toHaveAttribute('data-marked', '');
	await expect(log.getByRole('button', { name: /^Show earlier messages/ })).toHaveCount(0);
});
