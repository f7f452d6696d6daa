// The hook bus's public surface: the typed contract, the bus, and the hook-log entry shape.
export * from './hook-map';
export * from './hook-payloads';
export { HookBus, resolveTimeoutMs, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from './hook-bus';
export type { HookBusOptions, HookRegistrationInfo } from './hook-bus';
export { joinInjected } from './dispatch-results';
export type { InjectedContext, ToolDecision } from './dispatch-results';
export { SUPPRESS_AFTER_TIMEOUT_MS, callWithTimeout } from './run-hook';
export type { HookLogEntry, HookLogger, HookOutcome } from './run-hook';
export { summarizePayload } from './summarize-payload';
