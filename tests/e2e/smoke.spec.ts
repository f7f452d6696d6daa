import { expect, test } from '@playwright/test';

test('smoke', async ({ page }) => {
	page.on('console', (m) => console.log('console:', m.type(), m.text()));
	page.on('pageerror', (e) => console.log('pageerror:', e.message));
	await page.goto('/');
	await page.getByRole('textbox', { name: 'Message' }).fill('Hello there');
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('Hello there');
	await page.waitForTimeout(3000);
	await page.screenshot({ path: '/tmp/shot1.png' });
});
