// The shapes from lower layers that components and routes read, re-exported so that the UI
// imports state/ only, types included (DESIGN §2); a change below surfaces in the UI here.
export type { CommandInfo } from '../commands/command-registry';
export type { ImageRef, MessageRow, PluginRow, SessionRow, VersionPoint } from '../db/schema';
export type { ProviderConfig, ProviderPreset } from '../providers/types';
export { MAX_INJECTED_CHARS } from '../hooks/injected-limit';
export { PRUNED_STUB_PREFIX } from '../context/context-rows';
