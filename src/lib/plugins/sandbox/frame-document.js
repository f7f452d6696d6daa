// The document of a plugin's sandboxed frame (plain JavaScript: svelte.config.js reads it to
// allow exactly this inline script by its sha256 in the Content-Security-Policy, which the
// frame inherits). The frame has an opaque origin: it cannot reach the app's storage, cookies
// or DOM. It starts the plugin runtime, sent by the page as source text, in a classic worker
// made from a blob URL (a module worker from a blob URL cannot start in an opaque-origin
// frame), and relays messages between that worker and the port the page listens on.
//
// The plugin's code runs in that worker and can post anything the runtime can, so the page
// checks every message it gets. The frame adds one guard of its own, in the plugin's process
// rather than the page's: past FRAME_FLOOD_LIMIT messages in a second it ends the worker, tells
// the page, and relays nothing more. It never relays a port. A failure to start is reported
// to the page window; errors after that are the runtime's to report.

/** The most messages a second relayed from a plugin's worker to the page. */
export const FRAME_FLOOD_LIMIT = 2000;

export const FRAME_SCRIPT = `onmessage = (event) => {
	if (event.source !== parent) return;
	onmessage = null;
	const port = event.ports[0];
	const fail = (error) => parent.postMessage({ sandboxError: String(error && error.message || error).slice(0, 500) }, '*');
	try {
		const url = URL.createObjectURL(new Blob([event.data.runtime], { type: 'text/javascript' }));
		const worker = new Worker(url, { name: event.data.name });
		let started = false;
		let halted = false;
		let windowStart = -Infinity;
		let count = 0;
		worker.onerror = (error) => {
			if (!started) fail(error.message || 'the plugin runtime failed to start');
		};
		worker.onmessage = (message) => {
			if (halted) return;
			started = true;
			const now = performance.now();
			if (now - windowStart >= 1000) {
				windowStart = now;
				count = 0;
			}
			if (++count > ${FRAME_FLOOD_LIMIT}) {
				halted = true;
				worker.terminate();
				port.postMessage({ t: 'halt', reason: 'flood' });
				return;
			}
			try {
				port.postMessage(message.data);
			} catch {}
		};
		port.onmessage = (message) => {
			if (!halted) worker.postMessage(message.data);
		};
	} catch (error) {
		fail(error);
	}
};`;

export const FRAME_DOCUMENT = `<!doctype html><meta charset="utf-8"><script>${FRAME_SCRIPT}</script>`;
