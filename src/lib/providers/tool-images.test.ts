// A tool result's images on the wire: inside the result where the format takes them (Anthropic,
// Responses), after the run of results in a user message where it does not (Chat Completions),
// and never to the in-browser model, which reads text only.
import { describe, expect, it } from 'vitest';
import { buildAnthropicBody } from './anthropic-request';
import { buildOpenAIBody, withoutImages } from './openai-request';
import { buildResponsesBody } from './responses-request';
import type { ChatMessage, ChatRequest } from './types';

const IMAGE = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const messages: ChatMessage[] = [
	{ role: 'system', content: 'Be brief.' },
	{ role: 'user', content: 'Draw two charts.' },
	{
		role: 'assistant',
		content: '',
		tool_calls: [
			{ id: 'c1', name: 'chart', arguments: '{}' },
			{ id: 'c2', name: 'chart', arguments: '{}' }
		]
	},
	{ role: 'tool', tool_call_id: 'c1', content: 'Chart one [image: image/png, 1 KB]', images: [IMAGE] },
	{ role: 'tool', tool_call_id: 'c2', content: 'Chart two' },
	{ role: 'assistant', content: 'Here they are.' }
];
const request: ChatRequest = { model: 'm', messages };

describe('a tool result’s images on the wire', () => {
	it('Chat Completions: the tool messages stay text, and one user message after them carries the images, named by call', () => {
		const body = buildOpenAIBody(request) as { messages: Array<{ role: string; content: unknown; tool_call_id?: string }> };
		expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user', 'assistant']);
		expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'Chart one [image: image/png, 1 KB]' });
		expect(body.messages[5].content).toEqual([
			{ type: 'text', text: 'The images the tool results above returned:' },
			{ type: 'text', text: 'From tool call c1:' },
			{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }
		]);
	});

	it('Anthropic: the image goes inside its tool_result, after the text, as a base64 source', () => {
		const body = buildAnthropicBody(request) as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
		const results = body.messages[2].content;
		expect(results[0]).toEqual({
			type: 'tool_result',
			tool_use_id: 'c1',
			content: [
				{ type: 'text', text: 'Chart one [image: image/png, 1 KB]' },
				{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }
			]
		});
		expect(results[1]).toEqual({ type: 'tool_result', tool_use_id: 'c2', content: 'Chart two' });
	});

	it('Responses: the function_call_output is a list of its text and an input_image', () => {
		const body = buildResponsesBody(request) as { input: Array<Record<string, unknown>> };
		const outputs = body.input.filter((item) => item.type === 'function_call_output');
		expect(outputs).toEqual([
			{ type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'Chart one [image: image/png, 1 KB]' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' }] },
			{ type: 'function_call_output', call_id: 'c2', output: 'Chart two' }
		]);
	});

	it('a text-only model gets the text alone', () => {
		const body = buildOpenAIBody({ ...request, messages: withoutImages(messages) });
		expect(JSON.stringify(body)).not.toContain('iVBORw0KGgo');
		expect(messages[3].images).toEqual([IMAGE]);
	});
});
