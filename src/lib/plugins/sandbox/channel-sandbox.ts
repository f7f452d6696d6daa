// The plugin runtime behind a MessageChannel in this same thread: every message crosses a real
// port as a structured clone, exactly as it does to a sandboxed frame's worker, without the
// frame. Node tests use it (Node has no frames); it isolates nothing and cannot stop a loop.
// `context` is the runtime's own end, for tests that post on it as a hostile plugin would.
import type { ModuleImporter } from '../import-plugin-module';
import type { SandboxChannel } from './sandbox-channel';
import { servePluginRuntime, type RuntimeEndpoint } from './plugin-runtime';

export function openChannelSandbox(importer: ModuleImporter, onOpen?: (context: MessagePort) => void): SandboxChannel {
	const channel = new MessageChannel();
	// Told first: a test listening on the runtime's end hears each message before the runtime reads it.
	onOpen?.(channel.port2);
	servePluginRuntime(portEndpoint(channel.port2), importer);
	const failed = new Promise<never>(() => {});
	return {
		port: channel.port1,
		failed,
		terminate() {
			channel.port1.close();
			channel.port2.close();
		}
	};
}

function portEndpoint(port: MessagePort): RuntimeEndpoint {
	return {
		post: (message) => port.postMessage(message),
		listen: (receive) => {
			port.onmessage = (event) => receive(event.data);
		}
	};
}
