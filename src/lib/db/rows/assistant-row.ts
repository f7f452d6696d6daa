// An assistant's row and its bounds.
import type { ChatSettings } from './chat-settings';

/**
 * An assistant (the Assistants page): a name, the model and the chat settings a chat started
 * from it takes, and starter prompts its empty chat offers. Its id is random; names need not
 * be unique.
 */
export interface AssistantRow {
	id: string;
	name: string;
	/** The provider and model its chats use; both '' for the model new chats use. */
	provider: string;
	model: string;
	/** What its chats ask of the model (system prompt, sampling, tools, compaction): copied into each chat. */
	chat_settings?: ChatSettings;
	/** Offered as buttons on the empty chat; one clicked is sent. */
	starters: string[];
	created_at: number;
	updated_at: number;
}

/** The bounds of an assistant: its name, its starter prompts, and how many a profile keeps. */
export const ASSISTANT_LIMITS = {
	nameChars: 100,
	/** Characters of its provider id or model name. */
	modelChars: 200,
	starters: 8,
	starterChars: 1_000,
	assistants: 500
} as const;
