// Opens one plugin's isolated context in the page: a hidden iframe with `sandbox="allow-scripts"`
// (no allow-same-origin, so its origin is opaque) whose worker runs the plugin runtime. The page
// talks to the runtime over a MessagePort the frame hands to the worker (frame-document.js);
// removing the frame ends the worker and every task the plugin started, however busy its code is. A start that never
// answers is bounded by the loader's import timeout.
import runtimeSource from 'virtual:plugin-runtime-source';
import { FRAME_DOCUMENT } from './frame-document.js';
import type { SandboxChannel } from './sandbox-channel';

export function openFrameSandbox(name = 'plugin'): SandboxChannel {
	const frame = document.createElement('iframe');
	frame.setAttribute('sandbox', 'allow-scripts');
	frame.setAttribute('aria-hidden', 'true');
	frame.tabIndex = -1;
	frame.title = `Sandbox of plugin ${name}`;
	frame.style.display = 'none';
	frame.srcdoc = FRAME_DOCUMENT;
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
		() => frame.contentWindow?.postMessage({ runtime: runtimeSource, name: `plugin ${name}` }, '*', [channel.port2]),
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
