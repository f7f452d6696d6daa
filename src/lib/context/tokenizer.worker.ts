// Web Worker entry: serves tokenizerApi over comlink so encoding never blocks the UI thread.

import { expose } from 'comlink';
import { tokenizerApi } from './tokenizer-api';

expose(tokenizerApi);
