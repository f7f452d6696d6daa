// The start of a plugin's isolated runtime: a classic worker inside the plugin's sandboxed
// frame, which relays its messages to and from the page. The plugin's checked source is then
// imported from a blob URL made here, so the code that runs is the code the page hashed.
import { importFromBlob } from '../import-plugin-module';
import { servePluginRuntime, type RuntimeEndpoint } from './plugin-runtime';
import { provideRandomUuid } from './random-uuid';

// Chromium treats a blob: worker of an opaque origin as no secure context, which hides
// crypto.randomUUID; plugins rely on it (the guide's own examples do).
provideRandomUuid(crypto);

/** The parts of a dedicated worker's global scope used here (the app's types are the window's). */
interface WorkerScope {
	postMessage(message: unknown): void;
	addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
	addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
	addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void;
}

const scope = self as unknown as WorkerScope;

/**
 * The worker's own message channel, with every function it needs taken now, before any plugin
 * code runs: a plugin that replaces postMessage, addEventListener or MessageEvent's `data`
 * getter later changes nothing for the runtime. (It can always post on this channel itself;
 * the page checks everything that arrives.)
 */
function workerEndpoint(): RuntimeEndpoint {
	const apply = Reflect.apply;
	const post = scope.postMessage;
	const listen = scope.addEventListener;
	const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')?.get;
	if (!dataOf) throw new Error('This browser has no MessageEvent data getter.');
	return {
		post: (message) => apply(post, scope, [message]),
		listen: (receive) => apply(listen, scope, ['message', (event: MessageEvent) => receive(apply(dataOf, event, []))])
	};
}

const reportUncaught = servePluginRuntime(workerEndpoint(), importFromBlob);

// An error nothing caught in the plugin's timers or promises goes to its log, not to the frame.
scope.addEventListener('error', (event) => {
	event.preventDefault();
	reportUncaught(event.error ?? event.message);
});
scope.addEventListener('unhandledrejection', (event) => {
	event.preventDefault();
	reportUncaught(event.reason);
});
