// Builds bench/attach-harness (the attachment modules in a bare page) into a temporary folder and
// gives it the built app's Content-Security-Policy, so the worker and PDF.js run under the rules
// they meet in the app. Used by bench/attach.mjs and the attachment browser tests.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { readPagePolicy } from '../src/server/security-headers.mjs';

/**
 * The harness built into node_modules/.cache; `dir` is served with `serve({ root: dir, secure:
 * true })`. The app must be built first (build/index.html holds the policy).
 * @returns {Promise<{ dir: string, remove: () => Promise<void> }>}
 */
export async function buildAttachHarness() {
	const policy = readPagePolicy(await readFile('build/index.html', 'utf8').catch(() => ''));
	if (!policy) throw new Error('Build the app first (npx vite build): its index.html holds the policy the harness runs under.');
	const cache = resolve('node_modules/.cache');
	await mkdir(cache, { recursive: true });
	const dir = await mkdtemp(join(cache, 'palimpsest-attach-'));
	const remove = () => rm(dir, { recursive: true, force: true });
	try {
		await build({
			configFile: false,
			logLevel: 'warn',
			root: resolve('bench/attach-harness'),
			worker: { format: 'es' },
			build: { outDir: dir, emptyOutDir: true, target: 'es2023', minify: false, reportCompressedSize: false, chunkSizeWarningLimit: 4096 }
		});
		const page = join(dir, 'index.html');
		const html = await readFile(page, 'utf8');
		const meta = `<meta http-equiv="content-security-policy" content="${policy.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">`;
		await writeFile(page, html.replace('<head>', `<head>\n\t\t${meta}`));
	} catch (error) {
		await remove();
		throw error;
	}
	return { dir, remove };
}
