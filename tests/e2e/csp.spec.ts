// The Content-Security-Policy of the built app, as `npm start` serves it: injected inline script,
// eval, <object>/<embed> and framing by another site are refused by the browser itself, whatever
// got past the Markdown sanitizer; everything the app does is allowed.
import { expect, test, type Page } from './test-base';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../src/server/serve.mjs';
import { openApp, sendMessage, waitForAnswer } from './helpers';
import { addPlugin, navigate, rowStatus, runCommand, startPluginOrigins } from './plugin-helpers';

/** Starts recording the page's CSP violations before any of its scripts run. */
async function recordViolations(page: Page): Promise<() => Promise<{ directive: string; blocked: string }[]>> {
	await page.addInitScript(() => {
		const seen: { directive: string; blocked: string }[] = [];
		(globalThis as unknown as { __violations: typeof seen }).__violations = seen;
		document.addEventListener('securitypolicyviolation', (event) =>
			seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI })
		);
	});
	return () => page.evaluate(() => (globalThis as unknown as { __violations: { directive: string; blocked: string }[] }).__violations);
}

type AttemptWindow = { __attempt: (write: () => void) => string };

/**
 * Gives the page `__attempt(write)`: "written" when the write goes through, "refused" when it
 * throws the TypeError that Trusted Types throw, else the error.
 */
async function installAttempt(page: Page): Promise<void> {
	await page.addInitScript(() => {
		(globalThis as unknown as AttemptWindow).__attempt = (write) => {
			try {
				write();
				return 'written';
			} catch (error) {
				return error instanceof TypeError ? 'refused' : String(error);
			}
		};
	});
}

test('the server sends the policy, with frame-ancestors, nosniff and no referrer', async ({ page }) => {
	const response = await page.goto('/s/any-session');
	const headers = response!.headers();
	const policy = headers['content-security-policy'];
	expect(policy).toMatch(/script-src 'self' [^;]*'sha256-[A-Za-z0-9+/=]+'/);
	expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
	// No eval of JavaScript; WebAssembly may be compiled (the in-browser model is llama.cpp in WebAssembly).
	expect(policy).not.toContain("'unsafe-eval'");
	expect(policy).toMatch(/script-src [^;]*'wasm-unsafe-eval'/);
	expect(policy).toContain("object-src 'none'");
	expect(policy).toContain("frame-ancestors 'self'");
	expect(headers['x-content-type-options']).toBe('nosniff');
	expect(headers['referrer-policy']).toBe('no-referrer');
	// The page carries the same policy itself, for servers that send no header.
	const meta = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
	expect(policy.startsWith(meta!)).toBe(true);
});

test('an injected inline script, inline handler, eval and <embed> are refused by the policy itself', async ({ page }) => {
	const violations = await recordViolations(page);
	await installAttempt(page);
	await openApp(page);
	const outcome = await page.evaluate(async () => {
		const flags = globalThis as unknown as Record<string, unknown>;
		// Each written straight into the DOM, past the Markdown sanitizer, as a sanitizer bug
		// would let it. Trusted Types refuse a string of script where it is written (a TypeError);
		// what gets past them is refused by the script and object sources.
		const attempt = (globalThis as unknown as AttemptWindow).__attempt;
		const writes = {
			inline: attempt(() => {
				const script = document.createElement('script');
				script.append(document.createTextNode('globalThis.__inlineRan = true'));
				document.body.append(script);
			}),
			handler: attempt(() => {
				const button = document.createElement('button');
				button.setAttribute('onclick', 'globalThis.__handlerRan = true');
				document.body.append(button);
				button.click();
			}),
			// A string timer compiles its code as page code: the policy decides, not the test driver.
			timer: attempt(() => setTimeout('globalThis.__evalRan = true' as unknown as () => void, 0)),
			embed: attempt(() => {
				const embed = document.createElement('embed');
				embed.src = '/favicon.svg';
				embed.type = 'image/svg+xml';
				document.body.append(embed);
			})
		};
		await new Promise((resolve) => setTimeout(resolve, 200));
		return { writes, ran: [flags.__inlineRan, flags.__handlerRan, flags.__evalRan].filter(Boolean).length };
	});
	expect(outcome.ran).toBe(0);
	expect(outcome.writes).toEqual({ inline: 'written', handler: 'refused', timer: 'refused', embed: 'written' });
	await expect.poll(async () => (await violations()).map((v) => v.directive)).toEqual(expect.arrayContaining(['object-src']));
});

test('under Trusted Types, HTML and script URLs the app does not make are refused where they are written', async ({ page }) => {
	await installAttempt(page);
	await openApp(page);
	const refused = await page.evaluate(() => {
		const attempt = (globalThis as unknown as AttemptWindow).__attempt;
		const div = document.createElement('div');
		const script = document.createElement('script');
		return {
			innerHTML: attempt(() => (div.innerHTML = '<img src="x" onerror="globalThis.__ran = true">')),
			insertAdjacentHTML: attempt(() => div.insertAdjacentHTML('beforeend', '<b>markup</b>')),
			scriptSrc: attempt(() => (script.src = 'https://scripts.example/evil.js')),
			worker: attempt(() => new Worker('https://scripts.example/evil-worker.js')),
			ownWorker: attempt(() => new Worker('/service-worker.js').terminate())
		};
	});
	expect(refused).toEqual({ innerHTML: 'refused', insertAdjacentHTML: 'refused', scriptSrc: 'refused', worker: 'refused', ownWorker: 'written' });
});

test('another site cannot frame the app', async ({ page, baseURL }) => {
	const root = await mkdtemp(join(tmpdir(), 'palimpsest-framer-'));
	await writeFile(join(root, 'index.html'), `<!doctype html><title>framer</title><iframe src="${baseURL}/" width="600" height="400"></iframe>`);
	const framer = await serve({ root, fallback: null });
	try {
		// 127.0.0.1 and localhost are different sites to the browser.
		await page.goto(framer.url.replace('127.0.0.1', 'localhost'));
		const frame = page.frames().find((f) => f !== page.mainFrame());
		await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
		await expect(page.frameLocator('iframe').getByRole('textbox', { name: 'Message' })).toHaveCount(0);
	} finally {
		await framer.close();
		await rm(root, { recursive: true, force: true });
	}
});

test('everything the app does runs under the policy: chat, the token counter, plugins by URL, the service worker', async ({ page }) => {
	const origins = await startPluginOrigins();
	try {
		const violations = await recordViolations(page);
		await openApp(page);
		await sendMessage(page, 'Hello under a strict policy');
		await waitForAnswer(page);
		// Counted by the tokenizer's module worker.
		await expect(page.getByRole('status', { name: 'Context usage' })).toHaveText(/^\s*[1-9][\d,]* \//);
		const row = await addPlugin(page, `${origins.cors}/whoami.js`, 'whoami');
		await expect(rowStatus(row, 'Loaded')).toBeVisible();
		await navigate(page, 'Chat');
		await expect(await runCommand(page, '/whoami')).toContainText('Session:');
		await page.evaluate(async () => {
			await navigator.serviceWorker.ready;
		});
		expect(await violations()).toEqual([]);
	} finally {
		await origins.close();
	}
});

test('the browser accepts the whole policy: no console error on load, nor in a plugin frame that inherits it', async ({ page }) => {
	const origins = await startPluginOrigins();
	try {
		const errors: string[] = [];
		page.on('console', (message) => {
			if (message.type() === 'error') errors.push(`${message.location().url}: ${message.text()}`);
		});
		await openApp(page);
		const row = await addPlugin(page, `${origins.cors}/whoami.js`, 'whoami');
		await expect(rowStatus(row, 'Loaded')).toBeVisible();
		// The plugin's frame parsed the policy too.
		await expect.poll(() => page.frames().filter((frame) => frame.url() === 'about:srcdoc').length).toBe(1);
		expect(errors).toEqual([]);
	} finally {
		await origins.close();
	}
});
