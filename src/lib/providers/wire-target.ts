// Where an adapter posts its requests, as the provider contract and the request builders both
// name it: the wire protocol, the URL, and what shapes the body and headers (never the key).

/** The wire protocols the app speaks; `offline` is the built-in model (nothing on the network). */
export type WireApi = 'chat-completions' | 'responses' | 'anthropic' | 'offline';

/** Where an adapter posts its answers, and what shapes its body and headers (never the key). */
export interface WireTarget {
	api: WireApi;
	url: string;
	/** Whether the provider has a key (sent as a header, shown as a placeholder). */
	keyed: boolean;
	/** OpenAI's own Chat Completions wants `max_completion_tokens` instead of `max_tokens`. */
	maxCompletionTokens?: boolean;
	/** OpenAI's own Chat Completions reads PDFs sent as `file` parts; other servers get their text. */
	readsPdf?: boolean;
	/** The user marked its models as reading text only: images are left out of every request. */
	textOnly?: boolean;
	/** A model in this tab that takes temperature, top_p and max_tokens (the in-browser model; the offline one takes none). */
	sampling?: boolean;
}

export const OFFLINE_TARGET: WireTarget = Object.freeze({ api: 'offline', url: '', keyed: false });

/** The in-browser model: nothing on the network either, and it samples as the chat asks. */
export const IN_BROWSER_TARGET: WireTarget = Object.freeze({ api: 'offline', url: '', keyed: false, sampling: true });
