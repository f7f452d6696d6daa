// Web Worker entry: serves transferApi over comlink, so export and import run off the page.
import { expose } from 'comlink';
import { transferApi } from './transfer-api';

expose(transferApi);
