// The document of a plugin's sandboxed frame (plain JavaScript: svelte.config.js reads it to
// allow exactly this inline script by its sha256 in the Content-Security-Policy, which the
// frame inherits). The frame has an opaque origin: it cannot reach the app's storage, cookies
// or DOM. It does one thing: start the plugin runtime, sent by the page as source text, in a
// classic worker made from a blob URL (a module worker from a blob URL cannot start in an
// opaque-origin frame), hand it the port the page talks on, and report a failure to start.

export const FRAME_SCRIPT = `onmessage = (event) => {
	if (event.source !== parent) return;
	onmessage = null;
	const port = event.ports[0];
	const fail = (error) => parent.postMessage({ sandboxError: String(error && error.message || error) }, '*');
	try {
		const url = URL.createObjectURL(new Blob([event.data.runtime], { type: 'text/javascript' }));
		const worker = new Worker(url, { name: event.data.name });
		worker.onerror = (error) => fail(error.message || 'the plugin runtime failed to start');
		worker.postMessage(null, [port]);
	} catch (error) {
		fail(error);
	}
};`;

export const FRAME_DOCUMENT = `<!doctype html><meta charset="utf-8"><script>${FRAME_SCRIPT}</script>`;
