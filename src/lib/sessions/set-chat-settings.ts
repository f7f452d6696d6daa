// The user changes a chat's own settings (Chat settings). Loaded with the dialog, not with the page.
import { updateSession } from '../db/session-verbs';
import type { ChatSettings } from '../db/schema';
import { readChatSettings } from './chat-settings';
import type { SessionContext } from './session-context';

/**
 * The chat's own settings, as stored: what does not fit is left out, and none set removes them
 * (the chat follows Settings again). Returns what was stored.
 */
export async function setChatSettings(ctx: SessionContext, id: string, settings: ChatSettings): Promise<ChatSettings | undefined> {
	const stored = readChatSettings(settings);
	if (!(await updateSession(ctx.db, id, { chat_settings: stored }))) throw new Error('This session no longer exists.');
	return stored;
}
