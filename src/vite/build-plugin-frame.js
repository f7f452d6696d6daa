// Writes static/plugin-frame.html, the document of every plugin's frame, from
// src/lib/plugins/sandbox/frame-document.js: its inline script, and a policy that allows that
// script by its sha256. The file is committed (the app serves it as it is, and the service
// worker keeps it for offline use); a unit test fails if it differs from what this writes. Run
// `npm run build:frame` after changing frame-document.js. Plain JavaScript, run with `node`.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAME_PATH, FRAME_SCRIPT, frameDocument } from '../lib/plugins/sandbox/frame-document.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FRAME_FILE = resolve(ROOT, 'static', FRAME_PATH.slice(1));

/**
 * The CSP source that allows exactly `script` inline ('sha256-…').
 * @param {string} script
 */
export function scriptHash(script) {
	return `sha256-${createHash('sha256').update(script).digest('base64')}`;
}

/** The frame document as it should be committed. */
export function buildPluginFrame() {
	return frameDocument(scriptHash(FRAME_SCRIPT));
}

/** Whether static/plugin-frame.html is what frame-document.js writes now. */
export async function committedFrameIsFresh() {
	const built = buildPluginFrame();
	const committed = await readFile(FRAME_FILE, 'utf8').catch(() => '');
	return { fresh: built === committed, built, committed };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	await writeFile(FRAME_FILE, buildPluginFrame());
	console.log(`Wrote ${FRAME_FILE}`);
}
