// Merges documents of each kind that merges (a session's, a message's, a prompt's, an assistant's): the one rule the
// engine applies to conflicting revisions, however they met (a write that met another, a pull of
// a document with conflicting branches).
import { mergeMessageDocs, sameMessage } from './merge-message';
import { mergeSessionDocs, sameSession } from './merge-session';
import type { MessageDoc } from './message-document';
import type { SessionDoc } from './session-document';
import { mergePromptDocs, samePrompt, type PromptDoc } from './prompt-document';
import { mergeAssistantDocs, sameAssistant, type AssistantDoc } from './assistant-document';

export type AnyDoc = SessionDoc | MessageDoc | PromptDoc | AssistantDoc;

export const isMessageDoc = (doc: AnyDoc): doc is MessageDoc => 'position' in doc;
export const isPromptDoc = (doc: AnyDoc): doc is PromptDoc => 'prompt_id' in doc;
export const isAssistantDoc = (doc: AnyDoc): doc is AssistantDoc => 'assistant_id' in doc;

/** `a` merged with `b` (both of one document). */
export function mergeDocs<D extends AnyDoc>(a: D, b: D): D {
	if (isPromptDoc(a)) return mergePromptDocs(a, b as PromptDoc) as D;
	if (isAssistantDoc(a)) return mergeAssistantDocs(a, b as AssistantDoc) as D;
	return (isMessageDoc(a) ? mergeMessageDocs(a, b as MessageDoc) : mergeSessionDocs(a as SessionDoc, b as SessionDoc)) as D;
}

export function sameDoc(a: AnyDoc, b: AnyDoc): boolean {
	if (isPromptDoc(a)) return samePrompt(a, b as PromptDoc);
	if (isAssistantDoc(a)) return sameAssistant(a, b as AssistantDoc);
	return isMessageDoc(a) ? sameMessage(a, b as MessageDoc) : sameSession(a as SessionDoc, b as SessionDoc);
}
