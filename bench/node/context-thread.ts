// The context worker's API on a Node worker thread, served over comlink exactly as
// src/lib/context/context.worker.ts serves it in the browser.
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort } from 'node:worker_threads';
import { contextApi } from '../../src/lib/context/context-api';

if (!parentPort) throw new Error('Run this file as a worker thread.');
expose(contextApi, nodeEndpoint(parentPort));
