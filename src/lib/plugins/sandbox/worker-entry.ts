// The start of a plugin's isolated runtime: a classic worker inside the plugin's sandboxed
// frame. The frame passes the port the page talks on; the plugin's checked source is then
// imported from a blob URL made here, so the code that runs is the code the page hashed.
import { importFromBlob } from '../import-plugin-module';
import { FRAME_POLICY } from './frame-document.js';
import { servePluginRuntime, type RuntimeEndpoint } from './plugin-runtime';
import { provideRandomUuid } from './random-uuid';

// Chromium treats a blob: worker of an opaque origin as no secure context, which hides
// crypto.randomUUID; plugins rely on it (the guide's own examples do).
provideRandomUuid(crypto);

/** The parts of a dedicated worker's global scope used here (the app's types are the window's). */
interface WorkerScope {
	postMessage(message: unknown): void;
	addEventListener(type: 'message', listener: (event: MessageEvent) => void, options?: { once: boolean }): void;
	addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
	addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void;
	trustedTypes?: { createPolicy(name: string, rules: Record<string, never>): unknown };
}

const scope = self as unknown as WorkerScope;

// The only Trusted Types policy this worker's policy (its frame's) lets be made, made now and
// with no rules: plugin code can make none, so it turns no string of its own into a script
// URL, HTML or script (importScripts, a nested worker). The runtime itself needs none.
scope.trustedTypes?.createPolicy(FRAME_POLICY, {});

// Taken now, before any plugin code runs: a plugin that later replaces postMessage,
// addEventListener, MessageEvent's getters or Reflect.apply changes nothing for the runtime,
// and learns nothing of its port (the page's only channel to it is never handed to its code).
const apply = Reflect.apply;
const post = MessagePort.prototype.postMessage;
const listen = MessagePort.prototype.addEventListener;
const start = MessagePort.prototype.start;
const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')?.get;
const portsOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'ports')?.get;

function portEndpoint(port: MessagePort): RuntimeEndpoint {
	if (!dataOf) throw new Error('This browser has no MessageEvent data getter.');
	return {
		post: (message) => apply(post, port, [message]),
		listen: (receive) => {
			apply(listen, port, ['message', (event: MessageEvent) => receive(apply(dataOf, event, []))]);
			apply(start, port, []);
		}
	};
}

scope.addEventListener(
	'message',
	(event) => {
		const [port] = (portsOf ? apply(portsOf, event, []) : event.ports) as readonly MessagePort[];
		if (!port) return;
		const reportUncaught = servePluginRuntime(portEndpoint(port), importFromBlob);
		// An error nothing caught in the plugin's timers or promises goes to its log, not to the frame.
		scope.addEventListener('error', (error) => {
			error.preventDefault();
			reportUncaught(error.error ?? error.message);
		});
		scope.addEventListener('unhandledrejection', (rejection) => {
			rejection.preventDefault();
			reportUncaught(rejection.reason);
		});
		// Tells the frame the runtime is listening: from here on, its errors are the runtime's to report.
		scope.postMessage(null);
	},
	{ once: true }
);
