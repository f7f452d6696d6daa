// Keeps what it takes to show a request later: its recipe, which goes on the answer row, and
// its frame, stored once, written with that row. A request that cannot be recorded is still sent.
import type { RequestFrames } from '../db/request-frames';
import { updateMessage } from '../db/message-verbs';
import type { InjectedContext, MessageRow, SentRequest } from '../db/schema';
import type { ChatRequest } from '../providers/types';
import { buildWireRequest } from '../providers/wire-request';
import { OFFLINE_TARGET } from '../providers/wire-target';
import { makeRecipe, paramsOf, type RequestFrame } from './request-recipe';
import type { TurnDeps } from './turn-deps';

/** A request's recipe and the frame it refers to, to be written with the answer row. */
export interface RecordedRequest {
	sent: SentRequest;
	frames: RequestFrames;
}

export async function recordRequest(
	deps: Pick<TurnDeps, 'provider'>,
	request: ChatRequest,
	context: { systemPrompt: string; rows: MessageRow[]; userSeq: number }
): Promise<RecordedRequest | undefined> {
	try {
		const target = deps.provider.wire ?? OFFLINE_TARGET;
		const frame: RequestFrame = { target, system: context.systemPrompt };
		if (request.tools) frame.tools = request.tools;
		const params = paramsOf(request);
		if (params) frame.params = params;
		const { body } = buildWireRequest(target, request);
		const { sent, frameKey } = await makeRecipe({ frame, rows: context.rows, userSeq: context.userSeq, provider: deps.provider.id, request, body });
		return { sent, frames: { [frameKey]: frame } };
	} catch (error) {
		// Showing the request later is a nicety; the conversation goes on without it.
		console.warn('The request could not be recorded for "What the model received":', error);
		return undefined;
	}
}

/**
 * A later request of the same turn is about to replace the plugin context stored on the user
 * message: the answers that read theirs from there keep a copy of it on their recipe.
 */
export async function keepEarlierInjected(
	db: TurnDeps['db'],
	answers: { key: [string, number]; sent: SentRequest }[],
	earlier: InjectedContext[],
	next: InjectedContext[]
): Promise<void> {
	if (JSON.stringify(earlier) === JSON.stringify(next)) return;
	for (const { key, sent } of answers) await updateMessage(db, key, { sent: { ...sent, injected: earlier } });
}
