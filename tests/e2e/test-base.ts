// The `test` every browser spec uses: Playwright's, with one rule added. An uncaught error or a
// warning of Svelte's runtime in any page of the test (a second tab, a popup, a browser the test
// launched itself) fails the test, even when every assertion passed: a user would have met a
// broken page. And the routes a test set end with it, so none outlives it.
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { startCouchServer } from '../support/couch-server.mjs';

export { expect };

/**
 * Marks a test that measures the page's time (how late its timers run, its long tasks), or
 * races another process: `npm test` runs these on their own, one at a time, after the rest ran
 * two at a time, so that no other test's browser shares the machine's cores with them.
 */
export const TIMING = { tag: '@timing' } as const;
export type { BrowserContext, Download, Locator, Page, Request } from '@playwright/test';

export interface PageErrors {
	/** The uncaught errors seen so far, with the address of the page that threw. */
	readonly seen: string[];
	/** Watches a context the test made itself (every page of the test's own context is watched already). */
	watch(context: BrowserContext): void;
}

export const test = base.extend<{ pageErrors: PageErrors }, { couchServer: { url: string } }>({
	// One sync server per worker, started when a spec first asks for it and stopped when the worker
	// ends: each test makes a database of its own there (see sync-helpers.ts's createDatabase).
	couchServer: [
		async ({}, use) => {
			const server = await startCouchServer();
			await use({ url: server.url });
			await server.close();
		},
		{ scope: 'worker' }
	],
	pageErrors: [
		async ({ context }, use) => {
			const seen: string[] = [];
			const watched = new WeakSet<BrowserContext>();
			const watchPage = (page: Page) => {
				page.on('pageerror', (error) => seen.push(`${page.url()}: ${error.stack ?? `${error.name}: ${error.message}`}`));
				// Svelte's runtime warnings (a derived read after its component went, a state change
				// inside a derived, …) name a fault in the app as surely as an uncaught error does.
				page.on('console', (message) => {
					if (/svelte\.dev\/e\//.test(message.text())) seen.push(`${page.url()}: ${message.type()} ${message.text()} at ${JSON.stringify(message.location())}`);
				});
			};
			const watch = (target: BrowserContext) => {
				if (watched.has(target)) return;
				watched.add(target);
				target.pages().forEach(watchPage);
				target.on('page', watchPage);
			};
			watch(context);
			await use({ seen, watch });
			// The routes a test set end with it: a request one still holds (a script the page loads
			// in idle time after the test is done with it) would otherwise fail the next test in this worker.
			await Promise.all(context.pages().map((page) => page.unrouteAll({ behavior: 'ignoreErrors' })));
			await context.unrouteAll({ behavior: 'ignoreErrors' });
			expect(seen, 'uncaught errors in the page').toEqual([]);
		},
		{ auto: true }
	]
});
