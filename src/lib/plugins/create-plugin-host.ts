// The app's plugin host, whose ctx.log lines are kept in the profile's database (across reloads,
// for the Plugins page). Its module loads only when the first plugin needs it (see PluginHostLoader).
import { PluginHost, type PluginHostParts } from './plugin-host';
import { PluginLogBook } from './plugin-log-book';
import { createPluginLogWriter } from './plugin-log-writer';

export function createPluginHost(parts: Omit<PluginHostParts, 'logBook'>): PluginHost {
	const logBook = new PluginLogBook(undefined, createPluginLogWriter(parts.db).record);
	return new PluginHost({ ...parts, logBook });
}
