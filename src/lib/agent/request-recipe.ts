// What an answer keeps of the request it answered, and how that request is rebuilt, exactly,
// with the same builders that sent it. Pure, apart from hashing (Web Crypto).
import { contextRows } from '../db/context-rows';
import { REQUEST_FRAME_PREFIX } from '../db/request-frames';
import type { InjectedContext, MessageRow, SentRequest } from '../db/schema';
import { joinInjected } from '../hooks/dispatch-results';
import type { ChatRequest, RequestParams, ToolSchema } from '../providers/types';
import { OFFLINE_TARGET, type WireTarget } from '../providers/wire-target';
import { buildRequestMessages, type RequestImages } from './build-request';

/** What many requests share, stored once: where they went, the system prompt, the tools, the chat's parameters. */
export interface RequestFrame {
	target: WireTarget;
	system: string;
	tools?: ToolSchema[];
	/** Temperature, top_p, the answer's limit and reasoning effort, those the chat set (Chat settings). */
	params?: RequestParams;
}

const PARAM_KEYS = ['temperature', 'top_p', 'max_tokens', 'reasoning_effort'] as const;

/** The parameters a request carries, or undefined when it carries none. */
export function paramsOf(request: RequestParams): RequestParams | undefined {
	const params: Record<string, unknown> = {};
	for (const key of PARAM_KEYS) if (request[key] !== undefined) params[key] = request[key];
	return Object.keys(params).length ? (params as RequestParams) : undefined;
}

/** A short SHA-256 of a value's JSON text: the same value always gives the same key. */
export async function hashJson(value: unknown): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(value)));
	return Array.from(new Uint8Array(digest).slice(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Seqs as runs: [first, count] for consecutive whole seqs, [seq] for a fractional one. */
export function seqRuns(seqs: readonly number[]): number[][] {
	const runs: number[][] = [];
	for (const seq of seqs) {
		const last = runs.at(-1);
		if (Number.isInteger(seq) && last?.length === 2 && last[0] + last[1] === seq) last[1]++;
		else runs.push(Number.isInteger(seq) ? [seq, 1] : [seq]);
	}
	return runs;
}

export function expandRuns(runs: readonly number[][]): number[] {
	return runs.flatMap(([first, count]) => (count === undefined ? [first] : Array.from({ length: count }, (_, i) => first + i)));
}

export interface RecipeInput {
	frame: RequestFrame;
	/** The rows the request was built from (the session's active rows). */
	rows: MessageRow[];
	userSeq: number;
	provider: string;
	request: ChatRequest;
	body: unknown;
}

/** The recipe and frame key of a request about to be sent. */
export async function makeRecipe(input: RecipeInput): Promise<{ sent: SentRequest; frameKey: string }> {
	const frameKey = REQUEST_FRAME_PREFIX + (await hashJson(input.frame));
	const sent: SentRequest = {
		frame: frameKey,
		seqs: seqRuns(contextRows(input.rows).map((row) => row.seq)),
		user_seq: input.userSeq,
		provider: input.provider,
		model: input.request.model,
		body_hash: await hashJson(input.body)
	};
	if (input.request.context_management) sent.context_management = { ...input.request.context_management };
	return { sent, frameKey };
}

/** The plugin context a request carried: its own, or its user message's. */
export function injectedOf(sent: SentRequest, rows: readonly MessageRow[]): InjectedContext[] {
	return sent.injected ?? rows.find((row) => row.seq === sent.user_seq)?.injected ?? [];
}

/**
 * A carried row as it was when the request was sent: back in the context, and a summary whose
 * compaction was undone since (kept as a note) counted as the summary it then was.
 */
export function asSent(row: MessageRow): MessageRow {
	const undone = row.compaction?.undone_at !== undefined && row.kind === 'notice' && row.role === 'user';
	return { ...row, active: 1, kind: undone ? 'summary' : row.kind };
}

/**
 * The provider-neutral request again, from the recipe, its frame and the rows at its seqs
 * (which may have left the context since: a later compaction keeps them, inactive).
 */
export function rebuildChatRequest(sent: SentRequest, frame: RequestFrame, rows: readonly MessageRow[], images?: RequestImages): ChatRequest {
	const wanted = new Set(expandRuns(sent.seqs));
	const carried = rows.filter((row) => wanted.has(row.seq)).map(asSent);
	const messages = buildRequestMessages({
		systemPrompt: frame.system,
		rows: carried,
		userSeq: sent.user_seq,
		injected: joinInjected(injectedOf(sent, rows)),
		provider: sent.provider,
		images
	});
	const request: ChatRequest = { ...frame.params, model: sent.model, messages, tools: frame.tools };
	if (sent.context_management) request.context_management = { ...sent.context_management };
	return request;
}

export const targetOf = (frame: RequestFrame | undefined): WireTarget => frame?.target ?? OFFLINE_TARGET;
