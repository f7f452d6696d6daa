// Web Worker entry: serves the search API over comlink, so reading every title and message
// never blocks the page.
import { expose } from 'comlink';
import { createSearchApi } from './search-api';

expose(createSearchApi());
