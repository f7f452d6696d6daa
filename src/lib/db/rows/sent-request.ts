// The recipe of one request, kept on its answer so that "What the model received" can rebuild it.
import type { InjectedContext } from './injected-context';

/**
 * The recipe of one request, kept on its answer instead of the request itself (a session may
 * have thousands of answers): the rows it carried, its plugin context and parameters, and the
 * key of its frame (where it went, the system prompt and the tools), which is stored once.
 */
export interface SentRequest {
	/** Settings key of the frame (REQUEST_FRAME_PREFIX + a hash of its content). */
	frame: string;
	/** The context rows it carried: runs [first seq, count] of whole seqs, or [seq] alone. */
	seqs: number[][];
	/** The user message whose outgoing copy carried the plugin context. */
	user_seq: number;
	/** Its plugin context, kept here only once a later request of the turn replaced the message's. */
	injected?: InjectedContext[];
	provider: string;
	model: string;
	context_management?: { compactAt: number };
	/** A hash of the body as sent, so a rebuild can say whether it still matches. */
	body_hash: string;
}
