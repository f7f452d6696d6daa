// The first sync measured in a worker, as the app runs sync: the page only waits (and counts its long tasks).
import { expose } from 'comlink';
import { measureFirstSync } from './first-sync';

expose({ measureFirstSync });
