// Row shapes of a profile database. Field names are snake_case because rows cross the plugin
// boundary as payload data and are exported as JSON. Each shape lives in rows/, one concept a
// file; this module names them all, and is what the rest of the app imports them from.
export * from './rows/session-row';
export * from './rows/chat-settings';
export * from './rows/message-row';
export * from './rows/injected-context';
export * from './rows/compaction-marker';
export * from './rows/attachment';
export * from './rows/tool-result';
export * from './rows/sent-request';
export * from './rows/receipt-row';
export * from './rows/prompt-row';
export * from './rows/assistant-row';
export * from './rows/setting-row';
export * from './rows/plugin-rows';
export * from './rows/search-index-row';
export * from './rows/sync-rows';
