// The shapes from lower layers that components and routes read, re-exported so that the UI
// imports state/ only, types included (DESIGN §2); a change below surfaces in the UI here.
import type { CommandInfo } from '../../commands/command-registry';

export type { CommandInfo };
/** An entry of the slash menu: a command, or a saved prompt (`prompt`: its text goes in the Message box). */
export type MenuItem = CommandInfo & { prompt?: true };
export type { Attachment, ImageRef, MessageRow, PluginRow, RanWith, SessionRow, VersionPoint } from '../../db/schema';
export type { DraftAttachment } from '../chat/draft-attachments.svelte';
export { formatBytes } from '../../hooks/plain-data';
export { ATTACH_HINT } from '../../attachments/attachment-limits';
export type { ProviderConfig, ProviderPreset } from '../../providers/types';
export { MAX_INJECTED_CHARS } from '../../hooks/injected-limit';
export { PRUNED_STUB_PREFIX } from '../../context/context-rows';
export { pinnedTokens } from '../../context/pinned-rows';
