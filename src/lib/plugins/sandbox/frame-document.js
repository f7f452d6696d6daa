// The document of a plugin's sandboxed frame (plain JavaScript: svelte.config.js reads it to
// allow exactly this inline script by its sha256 in the Content-Security-Policy, which the
// frame inherits). The frame has an opaque origin: it cannot reach the app's storage, cookies
// or DOM. It does one thing: start the plugin runtime, sent by the page as source text, in a
// classic worker made from a blob URL (a module worker from a blob URL cannot start in an
// opaque-origin frame), hand it the port the page talks on, and report a failure to start.
// The worker's first message says the runtime is listening; after that the frame reads
// nothing from it. Under the policy's Trusted Types it may make exactly one script URL: that
// worker's.

/**
 * The one Trusted Types policy a plugin's frame and its worker may make. The frame's own policy
 * (below) allows no other name, and the worker, which inherits it, makes this one before any
 * plugin code runs (worker-entry.ts): plugin code can make none.
 */
export const FRAME_POLICY = 'palimpsest-plugin-frame';

// Added to the page's policy, which the frame inherits: both hold, so only names both allow.
const FRAME_CSP = `trusted-types ${FRAME_POLICY}; require-trusted-types-for 'script'`;

export const FRAME_SCRIPT = `onmessage = (event) => {
	if (event.source !== parent) return;
	onmessage = null;
	const port = event.ports[0];
	const fail = (error) => parent.postMessage({ sandboxError: String(error && error.message || error).slice(0, 500) }, '*');
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

export const FRAME_DOCUMENT = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}"><script>${FRAME_SCRIPT}</script>`;
