// Where the broker puts what plugins log: the worker's console (developer tools show it under
// the plugin's name) and the profile's stored log, which the Plugins page follows.
import type { PalimpsestDb } from '../../db/database';
import { toLogLine } from '../plugin-log-book';
import { createPluginLogWriter } from '../plugin-log-writer';
import type { LogSink } from './brokered-plugin';

export function storedLog(db: PalimpsestDb): LogSink {
	const writer = createPluginLogWriter(db);
	return {
		append(pluginId, level, args) {
			console[level](`[plugin ${pluginId}]`, ...args);
			writer.record(pluginId, toLogLine(Date.now(), level, args));
		}
	};
}
