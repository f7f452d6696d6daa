// The Content-Security-Policy of the built app, as `npm start` serves it: the page runs scripts of
// this site only, so injected inline script, eval, <object>/<embed>, a script from another origin
// (this computer's included) and framing by another site are refused by the browser itself,
// whatever got past the Markdown sanitizer; a plugin's frame is a document with a policy of its
// own, in an origin of its own, from which the plugin may import modules; everything the app does
// is allowed.
import type { Frame, Response } from '@playwright/test';
import { expect, test, type Page } from './test-base';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../src/server/serve.mjs';
import { expectNetworkOff, messageBody, openApp, sendMessage, waitForAnswer, waitForServiceWorkerControl } from './helpers';
import { addPlugin, navigate, pluginRow, rowStatus, runCommand, startPluginOrigins } from './plugin-helpers';

// These tests are about the service worker (offline use, its cache): it runs here, unlike in the other specs.
test.use({ serviceWorkers: 'allow' });

const META = 'meta[http-equiv="content-security-policy" i]';

/** The sources of one directive of `policy`, in order ([] when it is absent). */
function sources(policy: string, directive: string): string[] {
	for (const part of policy.split(';')) {
		const [name, ...values] = part.trim().split(/\s+/);
		if (name === directive) return values;
	}
	return [];
}

/** The frame of the page showing a plugin's frame document, if one has loaded. */
function pluginFrame(page: Page): Frame | undefined {
	return page.frames().find((frame) => new URL(frame.url()).pathname === '/plugin-frame.html');
}

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
	// Scripts of this site and SvelteKit's one inline start-up script, nothing else: no other
	// origin, not this computer, no blob: or data: URL, no 'unsafe-inline', no eval of
	// JavaScript. WebAssembly may be compiled (the in-browser model is llama.cpp in WebAssembly).
	expect(sources(policy, 'script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
	expect(sources(policy, 'worker-src')).toEqual(["'self'", 'blob:']);
	expect(sources(policy, 'object-src')).toEqual(["'none'"]);
	expect(sources(policy, 'frame-ancestors')).toEqual(["'self'"]);
	expect(headers['x-content-type-options']).toBe('nosniff');
	expect(headers['referrer-policy']).toBe('no-referrer');
	// The page carries the same policy itself, for servers that send no header.
	await expect(page.locator(META)).toHaveAttribute('content', policy.replace(/; frame-ancestors 'self'$/, ''));
});

test("a plugin frame's document carries a policy of its own, and has an origin of its own however it is opened", async ({ page }) => {
	const app = await page.goto('/');
	const pageHash = sources(app!.headers()['content-security-policy'], 'script-src')[2];
	// Opened on its own, as a page, not in the app's frame.
	const response = await page.goto('/plugin-frame.html');
	const policy = response!.headers()['content-security-policy'];
	// Its one inline script (not the page's), its runtime and the plugin's code from blob: URLs,
	// and what the plugin imports from an https URL or over http from this computer.
	expect(sources(policy, 'script-src')).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/), "'wasm-unsafe-eval'", 'blob:', 'https:', 'http:']);
	expect(sources(policy, 'script-src')).not.toContain(pageHash);
	expect(sources(policy, 'default-src')).toEqual(["'none'"]);
	expect(sources(policy, 'trusted-types')).toEqual(['palimpsest-plugin-frame']);
	expect(sources(policy, 'require-trusted-types-for')).toEqual(["'script'"]);
	expect(sources(policy, 'frame-ancestors')).toEqual(["'self'"]);
	expect(sources(policy, 'sandbox')).toEqual(['allow-scripts']);
	// The document carries the same policy, less what a <meta> tag cannot say.
	await expect(page.locator(META)).toHaveAttribute('content', policy.replace("; frame-ancestors 'self'; sandbox allow-scripts", ''));
	await expect.poll(() => page.evaluate(() => self.origin)).toBe('null');
	await expect
		.poll(() =>
			page.evaluate(() => {
				try {
					indexedDB.open('palimpsest-default');
					return 'opened';
				} catch (error) {
					return (error as Error).name;
				}
			})
		)
		.toBe('SecurityError');
});

test("the sign-in page and the app's other files are sent with the page's policy", async ({ page }) => {
	const app = await page.goto('/');
	const pagePolicy = app!.headers()['content-security-policy'];
	for (const path of ['/oauth-callback.html', '/oauth-callback.js', '/favicon.svg', '/service-worker.js', '/plugin-test-kit.js', '/plugins/whoami.js', '/manifest.webmanifest']) {
		const response = await page.request.get(path);
		expect(response.status(), path).toBe(200);
		expect(response.headers()['content-security-policy'], path).toBe(pagePolicy);
	}
	// The sign-in page narrows it further with its own: its one script file, nothing else.
	await page.goto('/oauth-callback.html');
	await expect(page.locator(META)).toHaveAttribute('content', "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'");
	await expect(page.locator('#status')).toContainText('Close this window');
});

test('a document the page opens from a blob: URL cannot run a script from another origin of this computer', async ({ page }) => {
	const asked: string[] = [];
	const elsewhere = createServer((request, response) => {
		asked.push(request.url ?? '');
		response.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*' }).end('document.title = "A script from elsewhere ran";');
	});
	await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.1', done));
	const script = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/x.js`;
	const refused: string[] = [];
	page.context().on('console', (message) => {
		if (message.text().includes(script)) refused.push(message.text());
	});
	try {
		await openApp(page);
		// A blob: document is of the app's origin and inherits the page's policy, as would any
		// document written by an injected script; its <script> is not a Trusted Types sink. (The
		// page may not frame it at all: its frames are documents of this site.)
		const opened = page.waitForEvent('popup');
		await page.evaluate((src) => {
			open(URL.createObjectURL(new Blob([`<!doctype html><title>Opened</title><script src="${src}"></script>`], { type: 'text/html' })));
		}, script);
		const popup = await opened;
		// Chromium may report it more than once.
		await expect.poll(() => [...new Set(refused)]).toEqual([expect.stringMatching(/violates the following Content Security Policy directive: "script-src /)]);
		expect(asked).toEqual([]);
		await expect(popup).toHaveTitle('Opened');
	} finally {
		await new Promise((done) => elsewhere.close(done));
	}
});

test('a plugin imports modules from this computer: localhost, 127.0.0.1 and [::1]', async ({ page }) => {
	const root = await mkdtemp(join(tmpdir(), 'palimpsest-imports-'));
	await writeFile(join(root, 'helper.js'), 'export const host = new URL(import.meta.url).host;\n');
	const v4 = await serve({ root, cors: true, fallback: null });
	const v6 = await serve({ root, cors: true, fallback: null, host: '::1' });
	const port = new URL(v4.url).port;
	const modules = [`${v4.url}/helper.js`, `http://localhost:${port}/helper.js`, `${v6.url}/helper.js`];
	await writeFile(
		join(root, 'imports.js'),
		`const MODULES = ${JSON.stringify(modules)};
export function register(ctx) {
	ctx.register_command('imports', async () => {
		const hosts = [];
		for (const url of MODULES) {
			try {
				hosts.push((await import(url)).host);
			} catch (error) {
				hosts.push('refused ' + url);
			}
		}
		return 'Imported from ' + hosts.join(', ');
	});
}
`
	);
	try {
		await openApp(page);
		const row = await addPlugin(page, `${v4.url}/imports.js`, 'imports');
		await expect(rowStatus(row, 'Loaded')).toBeVisible();
		await navigate(page, 'Chat');
		const output = await runCommand(page, '/imports');
		await expect(messageBody(output)).toHaveText(`Imported from 127.0.0.1:${port}, localhost:${port}, [::1]:${new URL(v6.url).port}`);
	} finally {
		await Promise.all([v4.close(), v6.close()]);
		await rm(root, { recursive: true, force: true });
	}
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

test('the browser accepts the whole policy: no console error on load, nor in a plugin frame with its own', async ({ page }) => {
	const origins = await startPluginOrigins();
	try {
		const errors: string[] = [];
		page.on('console', (message) => {
			if (message.type() === 'error') errors.push(`${message.location().url}: ${message.text()}`);
		});
		await openApp(page);
		const row = await addPlugin(page, `${origins.cors}/whoami.js`, 'whoami');
		await expect(rowStatus(row, 'Loaded')).toBeVisible();
		// The plugin's frame parsed its own policy too.
		await expect.poll(() => pluginFrame(page)?.url()).toMatch(/\/plugin-frame\.html$/);
		expect(errors).toEqual([]);
	} finally {
		await origins.close();
	}
});

test("with the network off, a plugin's frame comes from the service worker's copy, with its own policy and sandbox", async ({ page, context }) => {
	const origins = await startPluginOrigins();
	try {
		await openApp(page);
		// Its copy is kept once it has been fetched: a reload before then would fetch it again.
		await expect(rowStatus(await addPlugin(page, `${origins.cors}/whoami.js`, 'whoami'), 'Loaded')).toBeVisible();
		await waitForServiceWorkerControl(page);
		await context.setOffline(true);
		await expectNetworkOff(page);
		const frameAnswers: Response[] = [];
		page.on('response', (response) => {
			if (new URL(response.url()).pathname === '/plugin-frame.html') frameAnswers.push(response);
		});
		await page.reload();
		await expect(rowStatus(pluginRow(page, 'whoami'), 'Loaded (cached copy: the URL is unreachable)')).toBeVisible();
		await navigate(page, 'Chat');
		await expect(messageBody(await runCommand(page, '/whoami'))).toContainText('Session:');
		// Every load of the frame (a busy machine may see the plugin's frame made again) is the service worker's copy.
		await expect.poll(() => frameAnswers.length).toBeGreaterThan(0);
		expect(frameAnswers.map((response) => response.fromServiceWorker())).not.toContain(false);
		for (const answer of frameAnswers) expect(sources(answer.headers()['content-security-policy'], 'sandbox')).toEqual(['allow-scripts']);
		await expect.poll(() => pluginFrame(page)?.evaluate(() => self.origin)).toBe('null');
	} finally {
		await context.setOffline(false);
		await origins.close();
	}
});

test.describe('served without its sandbox', () => {
	// The route below must see the frame's request, which the service worker would otherwise answer.
	test.use({ serviceWorkers: 'block' });

	test("a plugin's frame starts no plugin, and the plugin's row says why", async ({ page }) => {
		const origins = await startPluginOrigins();
		try {
			await page.route('**/plugin-frame.html', async (route) => {
				const response = await route.fetch();
				const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => name !== 'content-security-policy'));
				await route.fulfill({ response, headers });
			});
			await openApp(page);
			const row = await addPlugin(page, `${origins.cors}/whoami.js`, 'whoami');
			await expect(rowStatus(row, 'Failed')).toBeVisible();
			await expect(row.getByRole('alert')).toContainText('the plugin frame was served without its sandbox policy');
			await navigate(page, 'Chat');
			await expect(messageBody(await runCommand(page, '/whoami'))).toContainText('Unknown command /whoami');
		} finally {
			await origins.close();
		}
	});
});
