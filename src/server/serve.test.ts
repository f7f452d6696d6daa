import { request } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serve } from './serve.mjs';
import { readPagePolicy, securityHeaders } from './security-headers.mjs';

let dir: string;
let server: Awaited<ReturnType<typeof serve>> | null = null;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'serve-'));
	await mkdir(join(dir, 'build', 'folder'), { recursive: true });
	await writeFile(join(dir, 'build', 'index.html'), '<h1>app</h1>');
	await writeFile(join(dir, 'build', 'app.js'), 'export {};');
	// A sibling whose name starts with the served folder's name.
	await mkdir(join(dir, 'build-secret'));
	await writeFile(join(dir, 'build-secret', 'x.txt'), 'secret');
});

afterEach(async () => {
	await server?.close();
	server = null;
	await rm(dir, { recursive: true, force: true });
});

/** GET with the path sent byte for byte, as a hostile client would (fetch would normalise it). */
function get(url: string, path: string): Promise<{ status: number; body: string }> {
	return new Promise((done, fail) => {
		const req = request(`${url}${path}`, { path, timeout: 2000 }, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (chunk) => (body += chunk));
			res.on('end', () => done({ status: res.statusCode ?? 0, body }));
		});
		req.on('timeout', () => req.destroy(new Error(`No answer to GET ${path}`)));
		req.on('error', fail);
		req.end();
	});
}

describe('serve', () => {
	it('serves files and falls back to index.html for app routes', async () => {
		server = await serve({ root: join(dir, 'build') });
		expect(await get(server.url, '/app.js')).toEqual({ status: 200, body: 'export {};' });
		expect(await get(server.url, '/chat/123')).toEqual({ status: 200, body: '<h1>app</h1>' });
		expect((await get(server.url, '/missing.js')).status).toBe(404);
	});

	it('gives the address of a server on the IPv6 loopback in brackets', async () => {
		server = await serve({ root: join(dir, 'build'), host: '::1' });
		expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
		expect(await get(server.url, '/app.js')).toEqual({ status: 200, body: 'export {};' });
	});

	it('answers 400 to a malformed percent-encoding and keeps serving', async () => {
		server = await serve({ root: join(dir, 'build') });
		expect((await get(server.url, '/%E0%A4%A')).status).toBe(400);
		expect((await get(server.url, '/app.js')).status).toBe(200);
	});

	it('never serves a sibling folder whose name starts with the root', async () => {
		server = await serve({ root: join(dir, 'build') });
		const answer = await get(server.url, '/..%2Fbuild-secret%2Fx.txt');
		expect(answer.status).toBe(403);
		expect(answer.body).not.toContain('secret');
	});

	it('answers 500 to a request that fails unexpectedly, and keeps serving', async () => {
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
		// The fallback is a folder, so reading it fails.
		server = await serve({ root: join(dir, 'build'), fallback: 'folder' });
		expect((await get(server.url, '/some/route')).status).toBe(500);
		expect(logged).toHaveBeenCalledWith(expect.stringContaining('/some/route'), expect.anything());
		logged.mockRestore();
		expect((await get(server.url, '/app.js')).status).toBe(200);
	});
});

describe('security headers', () => {
	/** GET returning the headers too. */
	function head(url: string, path: string): Promise<Record<string, string | string[] | undefined>> {
		return new Promise((done, fail) => {
			const req = request(`${url}${path}`, { timeout: 2000 }, (res) => {
				res.resume();
				res.on('end', () => done(res.headers));
			});
			req.on('error', fail);
			req.end();
		});
	}

	const PAGE = `<!doctype html><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src 'self'; script-src 'self' 'sha256-abc='; object-src 'none'"></head><body></body>`;

	it("sends the page's own Content-Security-Policy with frame-ancestors, and nosniff and no-referrer, on every answer", async () => {
		await writeFile(join(dir, 'build', 'index.html'), PAGE);
		server = await serve({ root: join(dir, 'build'), secure: true });
		for (const path of ['/', '/s/some-session', '/app.js', '/missing.js']) {
			const headers = await head(server.url, path);
			expect(headers['content-security-policy'], path).toBe("default-src 'self'; script-src 'self' 'sha256-abc='; object-src 'none'; frame-ancestors 'self'");
			expect(headers['x-content-type-options'], path).toBe('nosniff');
			expect(headers['referrer-policy'], path).toBe('no-referrer');
			expect(headers['x-frame-options'], path).toBe('SAMEORIGIN');
		}
	});

	const FRAME = `<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-frame=' blob: https: http:"><script>onmessage = () => {}</script>`;

	it("sends a plugin's frame document with its own policy and sandbox, never the page's", async () => {
		await writeFile(join(dir, 'build', 'index.html'), PAGE);
		await writeFile(join(dir, 'build', 'plugin-frame.html'), FRAME);
		server = await serve({ root: join(dir, 'build'), secure: true });
		const frame = "default-src 'none'; script-src 'sha256-frame=' blob: https: http:; frame-ancestors 'self'; sandbox allow-scripts";
		expect((await head(server.url, '/plugin-frame.html'))['content-security-policy']).toBe(frame);
		expect((await head(server.url, '/plugin-frame.html?v=2'))['content-security-policy']).toBe(frame);
		expect((await head(server.url, '/plugin-frame.html'))['x-content-type-options']).toBe('nosniff');
		// Everything else keeps the page's.
		expect((await head(server.url, '/s/plugin-frame.html'))['content-security-policy']).toBe("default-src 'self'; script-src 'self' 'sha256-abc='; object-src 'none'; frame-ancestors 'self'");
		expect((await head(server.url, '/app.js'))['content-security-policy']).toBe("default-src 'self'; script-src 'self' 'sha256-abc='; object-src 'none'; frame-ancestors 'self'");
	});

	it("sends the frame's sandbox even when asked for no security headers (it is what keeps a plugin's frame apart from the app)", async () => {
		await writeFile(join(dir, 'build', 'plugin-frame.html'), FRAME);
		server = await serve({ root: join(dir, 'build') });
		expect((await head(server.url, '/plugin-frame.html'))['content-security-policy']).toMatch(/; sandbox allow-scripts$/);
	});

	it('sends no security headers unless asked (the test servers for plugin origins)', async () => {
		await writeFile(join(dir, 'build', 'index.html'), PAGE);
		server = await serve({ root: join(dir, 'build') });
		expect((await head(server.url, '/'))['content-security-policy']).toBeUndefined();
	});
});

describe('readPagePolicy', () => {
	it('reads the policy SvelteKit writes, entities decoded, and nothing from other meta tags', () => {
		expect(readPagePolicy(`<meta name="description" content="x"><meta http-equiv="content-security-policy" content="img-src &quot;x&quot; &amp; 'self'">`)).toBe(`img-src "x" & 'self'`);
		expect(readPagePolicy('<meta http-equiv="refresh" content="5">')).toBeNull();
		expect(securityHeaders(null)).not.toHaveProperty('Content-Security-Policy');
		expect(securityHeaders("default-src 'self'; frame-ancestors *")['Content-Security-Policy']).toBe("default-src 'self'; frame-ancestors 'self'");
		// A sandbox comes from the caller only, never from the document's own tag.
		expect(securityHeaders("default-src 'self'; sandbox allow-same-origin allow-scripts")['Content-Security-Policy']).toBe("default-src 'self'; frame-ancestors 'self'");
		expect(securityHeaders(null, { sandbox: 'allow-scripts' })['Content-Security-Policy']).toBe("frame-ancestors 'self'; sandbox allow-scripts");
	});
});
