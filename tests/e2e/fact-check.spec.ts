// The fact check of a summary in the built app, against the mock provider writing the summary:
// the facts it lost are named on the compaction marker, each opens the compacted message it was
// said in, and "Add lost facts to summary" puts them, as they were written, in the next request.
import { expect, test, type Page } from './test-base';
import { openApp, sendAndWait, transcript } from './helpers';
import { addProvider, chooseModel } from './provider-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();
const marker = (page: Page) => transcript(page).getByRole('region', { name: 'Context compacted' });

const PLANTED =
	'We deploy the billing service from config/deploy.yaml to port 8443. Never run migrations on Fridays. ' +
	'The staging address is https://staging.example.com/billing and Ingrid Holm approves every release. ' +
	'It has been failing since the upgrade last week, and the logs have shown nothing unusual about it at all so far.';
const LOST = ['config/deploy.yaml', 'Never run migrations on Fridays.', 'https://staging.example.com/billing', 'Ingrid Holm'];

test('the facts a summary lost are named on the marker, open their message, and "Add lost facts to summary" sends them', async ({ page }) => {
	await openApp(page);
	await chooseModel(page, await addProvider(page, 'OpenAI', `${mock.url}/v1`, 'gpt-test'));
	await sendAndWait(page, PLANTED);
	await sendAndWait(page, 'Where do we start?');
	// The summary the mock writes keeps the port and nothing else.
	mock.script([{ type: 'text', text: '## Goal\n- Get the billing service on port 8443 working again.' }]);
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker(page)).toHaveCount(1);
	await expect(marker(page)).toContainText(`Kept 1 of ${LOST.length + 1} facts`);

	await marker(page).getByText('Lost facts (4)').click();
	const lost = marker(page).getByRole('list', { name: 'Lost facts' });
	for (const text of LOST) await expect(lost.getByRole('button', { name: text, exact: true })).toBeVisible();
	await expect(lost.getByRole('button', { name: 'port 8443' })).toHaveCount(0);

	// Each opens the compacted message it was said in.
	await lost.getByRole('button', { name: 'Ingrid Holm', exact: true }).click();
	const compacted = marker(page).getByRole('region', { name: 'Compacted messages' });
	await expect(compacted.getByRole('article').filter({ hasText: 'Never run migrations on Fridays.' }).first()).toBeFocused();

	await marker(page).getByRole('button', { name: 'Add lost facts to summary' }).click();
	await expect(marker(page)).toContainText('Lost facts added to the summary');
	await expect(marker(page)).toContainText('Kept 1 of 5 facts; 4 lost facts were added to the summary');
	await expect(marker(page).getByRole('button', { name: 'Add lost facts to summary' })).toHaveCount(0);
	await expect(marker(page).getByRole('button', { name: 'Undo compaction' })).toBeVisible();

	const answer = await sendAndWait(page, 'What next?');
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const body = page.getByRole('dialog', { name: 'What the model received' }).getByLabel('Request body');
	await expect(body).toContainText('## Facts from the compacted messages');
	for (const text of LOST) await expect(body).toContainText(`- ${text}`);
});
