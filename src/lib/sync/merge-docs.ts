// Merges documents of either kind that merges (a session's, a message's): the one rule the
// engine applies to conflicting revisions, however they met (a write that met another, a pull of
// a document with conflicting branches).
import { mergeMessageDocs, sameMessage } from './merge-message';
import { mergeSessionDocs, sameSession } from './merge-session';
import type { MessageDoc } from './message-document';
import type { SessionDoc } from './session-document';

export type AnyDoc = SessionDoc | MessageDoc;

const isMessage = (doc: AnyDoc): doc is MessageDoc => 'position' in doc;

/** `a` merged with `b` (both of one document). */
export function mergeDocs<D extends AnyDoc>(a: D, b: D): D {
	return (isMessage(a) ? mergeMessageDocs(a, b as MessageDoc) : mergeSessionDocs(a as SessionDoc, b as SessionDoc)) as D;
}

export function sameDoc(a: AnyDoc, b: AnyDoc): boolean {
	return isMessage(a) ? sameMessage(a, b as MessageDoc) : sameSession(a as SessionDoc, b as SessionDoc);
}
