// Web Worker entry: serves the tool-server API over comlink, so talking to MCP servers (and
// reading whatever they send) never blocks the page.
import { expose } from 'comlink';
import { createToolServerApi } from './tool-server-api';

expose(createToolServerApi());
