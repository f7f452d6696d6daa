import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { createHash } from 'node:crypto';
import { FRAME_POLICY, FRAME_SCRIPT } from './src/lib/plugins/sandbox/frame-document.js';

/** The one inline script of a plugin's sandboxed frame, which inherits this policy. */
const FRAME_SCRIPT_HASH = `sha256-${createHash('sha256').update(FRAME_SCRIPT).digest('base64')}`;

/**
 * The Content-Security-Policy. SvelteKit writes it into the page as a <meta> tag, adding the
 * sha256 of its own inline start-up script (mode 'hash'), so no other inline script, no
 * eval, no <object> or <embed> runs. src/server/serve.mjs sends the same policy as a header
 * and adds frame-ancestors, which a <meta> policy cannot carry. Keywords are written bare
 * ('self'); SvelteKit quotes them.
 * @type {import('@sveltejs/kit').CspDirectives}
 */
export const CSP_DIRECTIVES = {
	'default-src': ['self'],
	// Plugins run in sandboxed frames (an opaque origin), which inherit this policy: the
	// frame's one inline script by its hash; the plugin runtime and the plugin's checked
	// source from blob: URLs made there; what a plugin imports itself from an https URL or
	// this machine (docs/plugins.md). No 'unsafe-inline', no 'unsafe-eval'. The IPv6 loopback
	// [::1] cannot be named: a host-source has no syntax for an IP literal in brackets, and
	// Chromium drops such a source with a console error. A plugin is still loaded from
	// http://[::1] (its code is fetched, then run from a blob: URL); only its own imports from
	// there are refused.
	// 'wasm-unsafe-eval' lets WebAssembly be compiled, and nothing else (no eval of JavaScript):
	// the in-browser model is llama.cpp compiled to WebAssembly, started in a worker, which
	// inherits this policy.
	'script-src': ['self', FRAME_SCRIPT_HASH, 'wasm-unsafe-eval', 'blob:', 'https:', 'http://localhost:*', 'http://127.0.0.1:*'],
	// The token counter's module worker and the service worker are files of this site; each
	// plugin's worker is made from a blob: URL in its frame.
	'worker-src': ['self', 'blob:'],
	// Providers are whatever endpoint the user configures: a cloud API, a server on the
	// local network, localhost (IPv6 loopback included), any port; plugins are fetched from
	// https URLs, this machine or this site, and may fetch any http(s) URL themselves. Those
	// origins are not known when the app is built, so any http(s) origin may be called (no
	// WebSocket, data: or blob:); what keeps API keys safe is that no injected script can run
	// to call them.
	'connect-src': ['self', 'https:', 'http:'],
	// Remote images in answers load only when clicked; data: and blob: for the app's own.
	'img-src': ['self', 'data:', 'blob:', 'https:', 'http:'],
	// Svelte writes style attributes; styles cannot run code.
	'style-src': ['self', 'unsafe-inline'],
	'font-src': ['self', 'data:'],
	'manifest-src': ['self'],
	'object-src': ['none'],
	'base-uri': ['self'],
	'form-action': ['self'],
	// Every string that would become HTML, a script URL or script code needs a Trusted Type:
	// the app's default policy (src/lib/state/trusted-types.ts) lets through only the app's
	// own workers and plugin frame document; Svelte, SvelteKit and DOMPurify make their own;
	// each plugin frame makes one for its runtime's worker. No other policy can be created. A
	// plugin's frame adds a policy of its own that allows only its one (frame-document.js).
	'require-trusted-types-for': ['script'],
	'trusted-types': ['default', FRAME_POLICY, 'svelte-trusted-html', 'sveltekit-trusted-url', 'dompurify'],
	// Dropped from the <meta> tag by SvelteKit; serve.mjs sends it as a header.
	'frame-ancestors': ['self']
};

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	compilerOptions: {
		runes: ({ filename }) => (filename.split(/[/\\]/).includes('node_modules') ? undefined : true)
	},
	kit: {
		adapter: adapter({ fallback: 'index.html' }),
		// Absolute asset paths: the fallback page is served at every deep link.
		paths: { relative: false },
		serviceWorker: { register: true },
		csp: { mode: 'hash', directives: CSP_DIRECTIVES }
	}
};

export default config;
