// What a user attached reaches each wire format in that format's own parts: Chat Completions
// a content array with image_url data URLs, Responses input_text and input_image, Anthropic
// text and base64 image blocks; a text file as a text part headed by its name. A model that
// reads text only gets the files inline and no image. A PDF goes as a document where the
// provider reads PDFs (Anthropic, OpenAI's own APIs) and as its text everywhere else.
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './anthropic-request';
import { buildOpenAIBody, withoutImages } from './openai-request';
import { buildResponsesBody } from './responses-request';
import { buildWireRequest } from './wire-request';
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

describe('a PDF on the wire', () => {
	const pdf: ChatMessage = { role: 'user', content: 'Sum it up.', files: [{ name: 'report.pdf', text: 'Quarterly report', pdf: 'JVBERi0xLjQ=' }] };
	const asText = { type: 'text', text: 'File: report.pdf\n\nQuarterly report' };
	const sent = { model: 'm', messages: [pdf] };

	it('Anthropic: a document block with the base64 bytes, titled with its name', () => {
		const [message] = buildAnthropicRequest(sent).body.messages as Array<{ content: unknown }>;
		expect(message.content).toEqual([
			{ type: 'text', text: 'Sum it up.' },
			{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'report.pdf' }
		]);
	});

	it('Responses: an input_file with its name and a data URL', () => {
		const [message] = buildResponsesBody(sent).input as Array<{ content: unknown }>;
		expect(message.content).toEqual([
			{ type: 'input_text', text: 'Sum it up.' },
			{ type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=' }
		]);
	});

	it("Chat Completions: a file part to OpenAI's own API, the text to any other server", () => {
		const official = buildWireRequest({ api: 'chat-completions', url: 'u', keyed: true, maxCompletionTokens: true, readsPdf: true }, sent);
		expect((official.body.messages as Array<{ content: unknown[] }>)[0].content[1]).toEqual({ type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=' } });
		const other = buildWireRequest({ api: 'chat-completions', url: 'u', keyed: false }, sent);
		expect((other.body.messages as Array<{ content: unknown[] }>)[0].content).toEqual([{ type: 'text', text: 'Sum it up.' }, asText]);
	});

	it('a text-only model and the offline model get its text, never its bytes', () => {
		const textOnly = buildWireRequest({ api: 'anthropic', url: 'u', keyed: true, textOnly: true }, sent);
		expect(JSON.stringify(textOnly.body)).not.toContain('JVBERi0xLjQ=');
		expect((textOnly.body.messages as Array<{ content: unknown[] }>)[0].content).toEqual([{ type: 'text', text: 'Sum it up.\n\nFile: report.pdf\n\nQuarterly report' }]);
		const offline = buildWireRequest({ api: 'offline', url: '', keyed: false }, sent);
		expect(JSON.stringify(offline.body)).not.toContain('JVBERi0xLjQ=');
		expect(JSON.stringify(offline.body)).toContain('Quarterly report');
	});
});
