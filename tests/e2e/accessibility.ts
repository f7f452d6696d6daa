// What axe-core (the accessibility engine browsers' audits use) finds serious or critical on the
// page as it is now, against WCAG 2.1 A and AA: a test expects none.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from './test-base';

/** Fails with each serious or critical issue (its rule, what it means, where) in `selector`, or the whole page. */
export async function expectNoSeriousIssues(page: Page, selector?: string): Promise<void> {
	const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
	if (selector) builder.include(selector);
	const { violations } = await builder.analyze();
	const serious = violations.filter((issue) => issue.impact === 'serious' || issue.impact === 'critical');
	expect(serious.map((issue) => `${issue.id}: ${issue.help} (${issue.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
}
