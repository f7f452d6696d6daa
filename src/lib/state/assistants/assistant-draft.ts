// A new chat started from an assistant: it takes the assistant's model (when it names one), a copy
// of its chat settings, its name and its starter prompts, until its first message makes it a
// session. Loaded when an assistant is first used, not with the page.
import type { PalimpsestDb } from '../../db/database';
import { getAssistant } from '../../db/assistant-verbs';
import type { AssistantRow } from '../../db/schema';
import type { ChatState } from '../chat/chat.svelte';

/** The new chat on show starts from `assistant`; null: a plain new chat again, with the model new chats used before. */
export function startFrom(chat: ChatState, assistant: AssistantRow | null): void {
	if (!assistant) {
		if (!chat.draftAssistant) return;
		chat.draftAssistant = null;
		chat.draftSettings = undefined;
		if (chat.draftBeforeAssistant) chat.draft = chat.draftBeforeAssistant;
		chat.draftBeforeAssistant = null;
		return;
	}
	chat.draftBeforeAssistant ??= chat.draft;
	chat.draftAssistant = { id: assistant.id, name: assistant.name, starters: [...assistant.starters] };
	chat.draftSettings = assistant.chat_settings ? structuredClone(assistant.chat_settings) : undefined;
	chat.draft = assistant.provider ? { provider: assistant.provider, model: assistant.model } : chat.draftBeforeAssistant;
}

/** As startFrom, by the assistant's id (read from the database); one that no longer exists says so. */
export async function startFromAssistantId(chat: ChatState, db: PalimpsestDb, id: string | null): Promise<void> {
	if (id === null) return startFrom(chat, null);
	const row = await getAssistant(db, id);
	// A message made the new chat a session meanwhile: it started as it was.
	if (chat.sessionId !== null) return;
	startFrom(chat, row ?? null);
	if (!row) chat.error = 'This assistant no longer exists: the new chat starts from Settings.';
}
