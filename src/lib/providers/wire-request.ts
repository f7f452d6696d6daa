// Where a provider sends a request and the exact JSON body it sends, built by the same pure
// builders the adapters use. Lets the app show (and rebuild) what the model received, with the
// API key replaced by a placeholder: a key never leaves the adapter that holds it.
import { buildAnthropicRequest } from './anthropic-request';
import { buildOpenAIBody, withoutImages } from './openai-request';
import { buildResponsesBody } from './responses-request';
import type { ChatRequest } from './types';
import type { WireApi, WireTarget } from './wire-target';

export interface WireRequest {
	url: string;
	/** Every header the adapter sends, the key as a placeholder such as $OPENAI_API_KEY. */
	headers: Record<string, string>;
	body: Record<string, unknown>;
}

/** The environment variable a copied curl command reads the key from. */
export function keyPlaceholder(api: WireApi): string {
	return api === 'anthropic' ? '$ANTHROPIC_API_KEY' : '$OPENAI_API_KEY';
}

/**
 * A model in the tab takes the provider-neutral request as it is, a PDF as its text; the
 * in-browser model (`sampling`) its temperature, top_p and max_tokens too, when set.
 */
function offlineBody(request: ChatRequest, sampling: boolean): Record<string, unknown> {
	const messages = request.messages.map((message) => (message.files ? { ...message, files: message.files.map(({ name, text }) => ({ name, text })) } : message));
	const body: Record<string, unknown> = { model: request.model, messages };
	if (request.tools?.length) body.tools = request.tools;
	if (sampling) for (const key of ['temperature', 'top_p', 'max_tokens'] as const) if (request[key] !== undefined) body[key] = request[key];
	return body;
}

export function buildWireRequest(target: WireTarget, sent: ChatRequest): WireRequest {
	const request = target.textOnly ? { ...sent, messages: withoutImages(sent.messages) } : sent;
	const json = { 'content-type': 'application/json', accept: 'text/event-stream' };
	const placeholder = keyPlaceholder(target.api);
	switch (target.api) {
		case 'anthropic': {
			const { body, betas } = buildAnthropicRequest(request);
			const headers: Record<string, string> = {
				'x-api-key': placeholder,
				'anthropic-version': '2023-06-01',
				'anthropic-dangerous-direct-browser-access': 'true'
			};
			if (betas.length) headers['anthropic-beta'] = betas.join(',');
			return { url: target.url, headers: { ...headers, ...json }, body };
		}
		case 'offline':
			return { url: '', headers: {}, body: offlineBody(request, target.sampling === true) };
		default: {
			const body = target.api === 'responses' ? buildResponsesBody(request) : buildOpenAIBody(request, target.maxCompletionTokens ?? false, target.readsPdf ?? false);
			const auth: Record<string, string> = target.keyed ? { authorization: `Bearer ${placeholder}` } : {};
			return { url: target.url, headers: { ...auth, ...json }, body };
		}
	}
}

/** A shell-safe single-quoted word. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The request as a curl command. The key placeholder is left outside single quotes, so the
 * shell fills it in from the environment.
 */
export function formatCurl(request: WireRequest, api: WireApi): string {
	const placeholder = keyPlaceholder(api);
	const header = (name: string, value: string) =>
		value.includes(placeholder) ? `-H "${name}: ${value}"` : `-H ${quote(`${name}: ${value}`)}`;
	return [
		`curl ${quote(request.url)}`,
		...Object.entries(request.headers).map(([name, value]) => header(name, value)),
		`--data-raw ${quote(JSON.stringify(request.body))}`
	].join(' \\\n  ');
}
