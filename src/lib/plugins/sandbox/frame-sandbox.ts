// Opens one plugin's isolated context in the page: a hidden iframe showing the app's plugin frame
// document (frame-document.js), whose worker runs the plugin runtime. That document has a
// Content-Security-Policy of its own, sent with `sandbox allow-scripts`, so it has an opaque
// origin: it cannot reach the app's storage or DOM. The iframe has no sandbox attribute while
// it loads, so that the service worker may answer it with its copy when the network is off (a
// browser gives a sandboxed frame's load no service worker); once loaded it gets one, which any
// later load of the frame would have too. The page talks to the runtime over a MessagePort the
// frame hands to the worker; removing the frame ends the worker and every task the plugin
// started, however busy its code is. A start that never answers is bounded by the loader's
// import timeout.
import runtimeSource from 'virtual:plugin-runtime-source';
import { FRAME_PATH, FRAME_SANDBOX } from './frame-document.js';
import type { SandboxChannel } from './sandbox-channel';

export function openFrameSandbox(name = 'plugin'): SandboxChannel {
	const frame = document.createElement('iframe');
	frame.setAttribute('aria-hidden', 'true');
	frame.tabIndex = -1;
	frame.title = `Sandbox of plugin ${name}`;
	frame.style.display = 'none';
	frame.src = FRAME_PATH;
	const channel = new MessageChannel();
	let fail!: (error: Error) => void;
	const failed = new Promise<never>((_, reject) => (fail = reject));
	failed.catch(() => {});
	const onMessage = (event: MessageEvent) => {
		if (event.source !== frame.contentWindow) return;
		const data: unknown = event.data;
		const error = typeof data === 'object' && data !== null ? (data as { sandboxError?: unknown }).sandboxError : undefined;
		if (typeof error === 'string') fail(new Error(`The plugin's sandbox could not start: ${error.slice(0, 500)}`));
	};
	window.addEventListener('message', onMessage);
	frame.addEventListener(
		'load',
		() => {
			frame.setAttribute('sandbox', FRAME_SANDBOX);
			// A document the page can read shares the app's origin: its server sent it without its sandbox.
			if (frame.contentDocument) return fail(new Error("The plugin's sandbox could not start: the plugin frame was served without its sandbox policy."));
			frame.contentWindow?.postMessage({ runtime: runtimeSource, name: `plugin ${name}` }, '*', [channel.port2]);
		},
		{ once: true }
	);
	document.body.append(frame);
	return {
		port: channel.port1,
		failed,
		terminate() {
			window.removeEventListener('message', onMessage);
			channel.port1.close();
			frame.remove();
		}
	};
}
