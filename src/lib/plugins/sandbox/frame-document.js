// The document of a plugin's sandboxed frame (plain JavaScript: svelte.config.js reads it to
// allow exactly this inline script by its sha256 in the Content-Security-Policy, which the
// frame inherits). The frame has an opaque origin: it cannot reach the app's storage, cookies
// or DOM. It does one thing: start the plugin runtime, sent by the page as source text, in a
// classic worker made from a blob URL (a module worker from a blob URL cannot start in an
// opaque-origin frame), hand it the port the page talks on, and report a failure to start.
// The worker's first message says the runtime is listening; after that the frame reads
// nothing from it. Under the policy's Trusted Types it may make exactly one script URL: that
// worker's.

export const FRAME_SCRIPT = `onmessage = (event) => {
	if (event.source !== parent) return;
	onmessage = null;
	const port = event.ports[0];
	const fail = (error) => parent.postMessage({ sandboxError: String(error && error.message || error).slice(0, 500) }, '*');
	try {
		const url = URL.createObjectURL(new Blob([event.data.runtime], { type: 'text/javascript' }));
		const policy = self.trustedTypes && trustedTypes.createPolicy('palimpsest-plugin-frame', {
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

export const FRAME_DOCUMENT = `<!doctype html><meta charset="utf-8"><script>${FRAME_SCRIPT}</script>`;
