// A plugin broker in the caller's own thread, behind a real MessageChannel and the same
// comlink interface as the app's worker: for tests in Node (which has no workers of this
// kind), where what crosses must still be a structured clone.
import { expose } from 'comlink';
import { PalimpsestDb } from '../../db/database';
import type { LogSink } from './brokered-plugin';
import { connectBroker } from './broker-client';
import { BrokerSlot } from './broker-slot';
import { PluginBroker } from './plugin-broker';
import type { InboxScheduler } from './inbox-scheduler';
import type { Watchdog } from './response-watch';

export interface ThreadBrokerOptions {
	log: LogSink;
	storageBudget?: () => number;
	watchdog?: Watchdog;
	/** How plugins' messages are read (limits and clock); the app's by default. */
	inboxes?: InboxScheduler;
	/** Opens the broker's own connection (tests keep it, to reach what the broker writes with). */
	openDb?: (name: string) => PalimpsestDb;
}

/** A broker over the database named `dbName`, opened on a connection of its own as the worker's is. */
export function threadBroker(dbName: string, options: ThreadBrokerOptions): BrokerSlot {
	return new BrokerSlot(async () => {
		const channel = new MessageChannel();
		const broker = new PluginBroker({ openDb: options.openDb ?? ((name) => new PalimpsestDb(name)), log: () => options.log, storageBudget: options.storageBudget, watchdog: options.watchdog, inboxes: options.inboxes });
		expose(broker, channel.port2);
		return connectBroker(channel.port1, dbName, () => {
			broker.close();
			channel.port1.close();
			channel.port2.close();
		});
	});
}
