import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * The page's Content-Security-Policy. SvelteKit writes it into the page as a <meta> tag, adding
 * the sha256 of its own inline start-up script (mode 'hash'), so no other inline script, no
 * eval, no <object> or <embed> runs. src/server/serve.mjs sends the same policy as a header
 * and adds frame-ancestors, which a <meta> policy cannot carry. Keywords are written bare
 * ('self'); SvelteKit quotes them. Plugins do not run under this policy: each runs in a frame
 * whose document carries a policy of its own (src/lib/plugins/sandbox/frame-document.js).
 * @type {import('@sveltejs/kit').CspDirectives}
 */
export const CSP_DIRECTIVES = {
	'default-src': ['self'],
	// Scripts of this site only: no other origin, not this computer, no blob: or data: URL,
	// no 'unsafe-inline', no 'unsafe-eval'. A document the page opens from a blob: URL (or a
	// frame without a source of its own) inherits this, so neither can load script from
	// elsewhere. 'wasm-unsafe-eval' lets WebAssembly be compiled, and nothing else (no eval of
	// JavaScript): the in-browser model is llama.cpp compiled to WebAssembly, in a worker of
	// this site, which the server sends with this policy.
	'script-src': ['self', 'wasm-unsafe-eval'],
	// The app's workers are files of this site; the in-browser model's worker starts llama.cpp's
	// engine, and the engine its threads, from blob: URLs it makes from code in its package.
	'worker-src': ['self', 'blob:'],
	// Providers are whatever endpoint the user configures: a cloud API, a server on the
	// local network, localhost (IPv6 loopback included), any port; plugins are fetched from
	// https URLs, this machine or this site. Those origins are not known when the app is
	// built, so any http(s) origin may be called (no WebSocket, data: or blob:); what keeps
	// API keys safe is that no injected script can run to call them.
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
	// the app's default policy (src/lib/state/app/trusted-types.ts) lets through only the app's
	// own workers; Svelte, SvelteKit and DOMPurify make their own. No other policy can be
	// created. A plugin's frame has a policy of its own that allows only its one
	// (frame-document.js).
	'require-trusted-types-for': ['script'],
	'trusted-types': ['default', 'svelte-trusted-html', 'sveltekit-trusted-url', 'dompurify'],
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
