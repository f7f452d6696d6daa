// Loads "What the model received" for one answer: its recipe's frame and rows from the
// database, the rebuilt request, the app's token estimate of it and the provider's usage.
import { readRequestFrame, readRowsAt } from '../../db/request-frames';
import { describeRequest, type DescribedRequest } from '../../agent/describe-request';
import { expandRuns, type RequestFrame } from '../../agent/request-recipe';
import { readRequestImages } from '../../agent/request-images';
import type { MessageRow } from '../../db/schema';
import type { Usage } from '../../providers/types';
import type { Services } from '../app/services';
import { imageTokensOf } from '../../context/estimate-session';

export interface SentRequestView extends DescribedRequest {
	/** This app's count of the request's input (the figure the context meter uses). */
	estimate: number | null;
	usage: Usage | null;
}

export async function loadSentRequest(services: Pick<Services, 'db' | 'worker' | 'readsImages'>, answer: MessageRow): Promise<SentRequestView> {
	const sent = answer.sent;
	if (!sent) throw new Error('This answer does not say what was sent (it was written by an older version or imported).');
	const frame = (await readRequestFrame(services.db, sent.frame)) as RequestFrame | undefined;
	if (!frame) throw new Error('The system prompt and tools of this request are not stored in this profile.');
	const seqs = [...new Set([...expandRuns(sent.seqs), sent.user_seq])].sort((a, b) => a - b);
	const rows = await readRowsAt(services.db, answer.session_id, seqs);
	const described = await describeRequest(sent, frame, rows, await readRequestImages(services.db, answer.session_id, rows));
	let estimate: number | null = null;
	try {
		const counted = await services.worker.estimate(
			{
				messages: described.parts.filter((part) => part.label !== 'System prompt').map((part) => ({ content: part.text })),
				systemPrompt: frame.system,
				toolSchemas: frame.tools,
				injected: described.parts.flatMap((part) => part.injected?.map((item) => item.text) ?? []),
				reservedOutput: 0
			},
			sent.model
		);
		// Images count by the rule of the wire format they went in (none went to a model that cannot see).
		const imageApi = services.readsImages({ provider: sent.provider, model: sent.model }) ? described.api : 'offline';
		estimate = counted.total + (await imageTokensOf(rows, imageApi));
	} catch {
		// The count is a help; the request itself is shown without it.
	}
	return { ...described, estimate, usage: answer.usage ?? null };
}
