// Web Worker entry of the plugin broker (see plugin-broker.ts): serves it to the page over comlink.
import { expose } from 'comlink';
import { PalimpsestDb } from '../../db/database';
import { PluginBroker } from './plugin-broker';
import { storedLog } from './stored-log';

expose(new PluginBroker({ openDb: (name) => new PalimpsestDb(name), log: storedLog }));
