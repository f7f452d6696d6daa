// Asks a model for a session's title: one request of its own, beside the conversation. It is not
// a turn: no plugin hook fires for it, nothing is stored in the transcript, and it counts towards
// no turn or compaction figure.
import type { Provider, Usage } from '../providers/types';
import { cleanModelTitle, TITLE_MAX_TOKENS, titleRequestMessages } from './title-request';

export interface TitleWriter {
	provider: Provider;
	model: string;
}

export interface WrittenTitle {
	/** The title to show, or null when the reply held none. */
	title: string | null;
	/** What the provider said the request took, when it said. */
	usage?: Usage;
}

/** The model's title for a conversation that began with `question` and `answer`; throws what the provider threw. */
export async function writeTitle(writer: TitleWriter, question: string, answer: string, signal?: AbortSignal): Promise<WrittenTitle> {
	let text = '';
	let usage: Usage | undefined;
	for await (const event of writer.provider.stream({ model: writer.model, messages: titleRequestMessages(question, answer), max_tokens: TITLE_MAX_TOKENS, signal })) {
		if (event.type === 'text') text += event.text;
		else if (event.type === 'usage') usage = event.usage;
	}
	return { title: cleanModelTitle(text), ...(usage ? { usage } : {}) };
}
