// The plugin runtime behind a MessageChannel in this same thread: every call crosses a real
// port as structured clones, exactly as it does to a sandboxed frame's worker, without the
// frame. Node tests use it (Node has no frames); it isolates nothing and cannot stop a loop.
import type { ModuleImporter } from '../import-plugin-module';
import type { SandboxChannel } from './isolated-runner';
import { exposePluginRuntime } from './plugin-runtime';

export function openChannelSandbox(importer: ModuleImporter): SandboxChannel {
	const channel = new MessageChannel();
	exposePluginRuntime(channel.port2, importer);
	const failed = new Promise<never>(() => {});
	return {
		endpoint: channel.port1,
		failed,
		terminate() {
			channel.port1.close();
			channel.port2.close();
		}
	};
}
