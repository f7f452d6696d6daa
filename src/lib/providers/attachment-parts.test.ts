// What a user attached reaches each wire format in that format's own parts: Chat Completions
// a content array with image_url data URLs, Responses input_text and input_image, Anthropic
// text and base64 image blocks; a text file as a text part headed by its name. A model that
// reads text only gets the files inline and no image.
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './anthropic-request';
import { buildOpenAIBody, withoutImages } from './openai-request';
import { buildResponsesBody } from './responses-request';
import { readsImages, type ChatMessage } from './types';

const message: ChatMessage = {
	role: 'user',
	content: 'What is in the picture?',
	images: [{ mimeType: 'image/png', data: 'iVBORw0K' }],
	files: [{ name: 'notes.md', text: '# Notes' }]
};
const request = { model: 'm', messages: [message] };

describe('attachments on the wire', () => {
	it('Chat Completions: text, the file as text, the image as a data URL', () => {
		const [sent] = buildOpenAIBody(request).messages as Array<{ content: unknown }>;
		expect(sent.content).toEqual([
			{ type: 'text', text: 'What is in the picture?' },
			{ type: 'text', text: 'File: notes.md\n\n# Notes' },
			{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } }
		]);
	});

	it('Responses: input_text parts and an input_image', () => {
		const [sent] = buildResponsesBody(request).input as Array<{ content: unknown }>;
		expect(sent.content).toEqual([
			{ type: 'input_text', text: 'What is in the picture?' },
			{ type: 'input_text', text: 'File: notes.md\n\n# Notes' },
			{ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0K' }
		]);
	});

	it('Anthropic: text blocks and a base64 image block', () => {
		const [sent] = buildAnthropicRequest(request).body.messages as Array<{ content: unknown }>;
		expect(sent.content).toEqual([
			{ type: 'text', text: 'What is in the picture?' },
			{ type: 'text', text: 'File: notes.md\n\n# Notes' },
			{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } }
		]);
	});

	it('a message of attachments alone sends no empty text part', () => {
		const alone = { model: 'm', messages: [{ ...message, content: '' }] };
		expect((buildOpenAIBody(alone).messages as Array<{ content: unknown[] }>)[0].content).toHaveLength(2);
		expect((buildAnthropicRequest(alone).body.messages as Array<{ content: unknown[] }>)[0].content).toHaveLength(2);
	});

	it('a text-only model gets the file inline and no image', () => {
		expect(withoutImages([message])).toEqual([{ role: 'user', content: 'What is in the picture?\n\nFile: notes.md\n\n# Notes' }]);
	});

	it('models read images unless they run in the tab, offline, or their provider is marked text only', () => {
		expect(readsImages({ preset: 'openai' })).toBe(true);
		expect(readsImages({ preset: 'anthropic' })).toBe(true);
		expect(readsImages({ preset: 'custom' })).toBe(true);
		expect(readsImages({ preset: 'custom', text_only: true })).toBe(false);
		expect(readsImages({ preset: 'wllama' })).toBe(false);
		expect(readsImages({ preset: 'offline' })).toBe(false);
	});
});
