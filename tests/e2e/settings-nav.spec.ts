// Settings people can find their way in: a navigation of its sections that jumps to each and
// says which one is being read, on a desktop and on a phone; and the keyboard shortcuts,
// listed on ? from anywhere outside a text field.
import { expect, test } from './test-base';
import { expectNoSeriousIssues } from './accessibility';
import { openApp } from './helpers';
import { navigate } from './plugin-helpers';

const SECTIONS = ['General', 'Providers', 'Tool servers', 'Sync', 'Context and compaction', 'Plugins', 'Profiles', 'Data'];
const HEADINGS: Record<string, string> = { Sync: 'Sync', 'Context and compaction': 'Context and compaction', Profiles: 'Profile', Data: 'Export and import' };

test('Settings lists its sections; each link jumps to its section and is marked as the one being read', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	const sections = page.getByRole('navigation', { name: 'Settings sections' });
	await expect(sections.getByRole('link')).toHaveText(SECTIONS);
	for (const name of ['Data', 'Sync', 'Context and compaction', 'Profiles']) {
		await sections.getByRole('link', { name, exact: true }).click();
		await expect(page.getByRole('heading', { name: HEADINGS[name], exact: true, level: 2 })).toBeInViewport();
		await expect(sections.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'true');
	}
	// The navigation stays in view while the page scrolls under it.
	await expect(sections).toBeInViewport();
	await expectNoSeriousIssues(page, 'main');
});

test('on a phone the sections are one line that scrolls sideways, and a link still jumps to its section', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	await openApp(page);
	await page.goto('/settings');
	const sections = page.getByRole('navigation', { name: 'Settings sections' });
	await expect.poll(() => sections.evaluate((nav) => nav.getBoundingClientRect().height)).toBeLessThan(64);
	await sections.getByRole('link', { name: 'Data', exact: true }).click();
	await expect(page.getByRole('heading', { name: 'Export and import', level: 2 })).toBeInViewport();
});

test('? outside a text field lists the keyboard shortcuts; Escape closes the list and focus goes back', async ({ page }) => {
	await openApp(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	// In a text field, ? is typed.
	await box.press('?');
	await expect(box).toHaveValue('?');
	await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
	await box.fill('');

	const search = page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: 'Settings', exact: true });
	await search.focus();
	await page.keyboard.press('?');
	const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByRole('table', { name: 'In the Message box' })).toContainText('Shift+Enter');
	await expect(dialog.getByRole('table', { name: 'Anywhere' })).toContainText(/Ctrl\+K|⌘K/);
	await expectNoSeriousIssues(page, 'dialog');
	await page.keyboard.press('Escape');
	await expect(dialog).toHaveCount(0);
	await expect(search).toBeFocused();
});
