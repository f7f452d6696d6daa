// The start of a plugin's isolated runtime: a classic worker inside the plugin's sandboxed
// frame. The frame passes the port the page talks on; the plugin's checked source is then
// imported from a blob URL made here, so the code that runs is the code the page hashed.
import { importFromBlob } from '../import-plugin-module';
import { exposePluginRuntime } from './plugin-runtime';
import { provideRandomUuid } from './random-uuid';

// Chromium treats a blob: worker of an opaque origin as no secure context, which hides
// crypto.randomUUID; plugins rely on it (the guide's own examples do).
provideRandomUuid(crypto);

self.addEventListener(
	'message',
	(event: MessageEvent) => {
		const port = event.ports[0];
		if (port) exposePluginRuntime(port, importFromBlob);
	},
	{ once: true }
);
