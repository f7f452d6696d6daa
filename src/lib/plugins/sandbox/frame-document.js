// The document of a plugin's frame, static/plugin-frame.html, written from this file by
// src/vite/build-plugin-frame.js (plain JavaScript: that script and the server read it). The
// frame is a document of its own with a Content-Security-Policy of its own, not the page's: it
// lets the plugin's code import modules from https URLs and from this computer, which the page
// itself may not. The server sends that policy as a header too, with `sandbox allow-scripts`
// (which a <meta> tag cannot carry), so the document has an opaque origin however it is opened:
// it cannot reach the app's storage, cookies or DOM.
// Its one inline script does one thing: start the plugin runtime, sent by the page as source
// text, in a classic worker made from a blob URL (a module worker from a blob URL cannot start
// in an opaque-origin frame), hand it the port the page talks on, and report a failure to start.
// The worker's first message says the runtime is listening; after that the frame reads nothing
// from it. Under the frame's Trusted Types it may make exactly one script URL: that worker's.

/**
 * The one Trusted Types policy a plugin's frame and its worker may make. The frame's policy
 * (below) allows no other name, and the worker, which inherits it, makes this one before any
 * plugin code runs (worker-entry.ts): plugin code can make none.
 */
export const FRAME_POLICY = 'palimpsest-plugin-frame';

/** Where the app serves the frame's document (static/plugin-frame.html). */
export const FRAME_PATH = '/plugin-frame.html';

/** The frame's sandbox, sent in its header policy: scripts run, in an origin of their own. */
export const FRAME_SANDBOX = 'allow-scripts';

export const FRAME_SCRIPT = `onmessage = (event) => {
	if (event.source !== parent) return;
	onmessage = null;
	const port = event.ports[0];
	const fail = (error) => parent.postMessage({ sandboxError: String(error && error.message || error).slice(0, 500) }, '*');
	// Served without its sandbox, this document has the app's origin: plugin code never runs here.
	if (self.origin !== 'null') return fail('the plugin frame was served without its sandbox');
	try {
		const url = URL.createObjectURL(new Blob([event.data.runtime], { type: 'text/javascript' }));
		const policy = self.trustedTypes && trustedTypes.createPolicy('${FRAME_POLICY}', {
			createScriptURL(input) {
				if (input !== url) throw new TypeError('Only the plugin runtime starts here.');
				return input;
			}
		});
		const worker = new Worker(policy ? policy.createScriptURL(url) : url, { name: event.data.name });
		worker.onerror = (error) => fail(error.message || 'the plugin runtime failed to start');
		worker.onmessage = () => {
			worker.onerror = null;
			worker.onmessage = null;
		};
		worker.postMessage(null, [port]);
	} catch (error) {
		fail(error);
	}
};`;

/**
 * The frame's Content-Security-Policy as its <meta> tag carries it; `scriptHash` is the
 * sha256 source of FRAME_SCRIPT ('sha256-…'). Keywords are written quoted, as a policy is.
 * @param {string} scriptHash
 */
export function framePolicy(scriptHash) {
	return [
		"default-src 'none'",
		// Its one inline script; the runtime and the plugin's checked code from blob: URLs made in
		// the frame; what the plugin imports itself from an https URL or over http (meant for this
		// computer: localhost, 127.0.0.1, [::1], which a host source cannot name). The frame may
		// fetch any http(s) URL as well, so no narrower list would narrow what a plugin can run.
		// WebAssembly may be compiled; JavaScript is never evaluated from a string.
		`script-src '${scriptHash}' 'wasm-unsafe-eval' blob: https: http:`,
		'worker-src blob:',
		'connect-src https: http:',
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'none'",
		"require-trusted-types-for 'script'",
		`trusted-types ${FRAME_POLICY}`
	].join('; ');
}

/**
 * The whole frame document.
 * @param {string} scriptHash
 */
export function frameDocument(scriptHash) {
	return `<!doctype html>
<!-- Written by src/vite/build-plugin-frame.js from src/lib/plugins/sandbox/frame-document.js: edit that, then run npm run build:frame. -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${framePolicy(scriptHash)}">
<title>Plugin sandbox – Palimpsest</title>
<script>${FRAME_SCRIPT}</script>
</head>
</html>
`;
}
