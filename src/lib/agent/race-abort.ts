// Lets Stop end a wait that cannot itself be cancelled (plugin hooks, plugin loading, locks).
export { raceAbort } from '../providers/abort';
