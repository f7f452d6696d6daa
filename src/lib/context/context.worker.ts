// Web Worker entry: serves contextApi over comlink, so counting, planning and the extractive
// summary never block the page.

import { expose } from 'comlink';
import { contextApi } from './context-api';

expose(contextApi);
