import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from './read-content-block';
import { MAX_RESULT_IMAGES, MAX_RESULT_PARTS, MODEL_RESULT_CHARS, readToolResult, STORED_RESULT_CHARS } from './read-tool-result';
import type { ResultPart } from './types';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const text = (value: string) => ({ type: 'text', text: value });
const notes = (parts: ResultPart[]) => parts.filter((p) => p.type === 'note').map((p) => (p as { text: string }).text);

describe('readToolResult', () => {
	it('keeps text parts, and sends the model them joined with blank lines', () => {
		const view = readToolResult({ content: [text('The sum of 2 and 3 is 5.'), text('Done.')] });
		expect(view).toEqual({
			isError: false,
			parts: [
				{ type: 'text', text: 'The sum of 2 and 3 is 5.' },
				{ type: 'text', text: 'Done.' }
			],
			forModel: 'The sum of 2 and 3 is 5.\n\nDone.'
		});
	});

	it('tells the model when the tool reported an error', () => {
		const view = readToolResult({ content: [text('File not found')], isError: true });
		expect(view.isError).toBe(true);
		expect(view.forModel).toBe('The tool reported an error: File not found');
		expect(readToolResult({ content: [], isError: true }).forModel).toBe('The tool reported an error: (it gave no details)');
		expect(readToolResult({ content: [text('x')], isError: 'yes' }).isError).toBe(false);
	});

	it('says the tool returned nothing rather than sending the model an empty text', () => {
		expect(readToolResult({ content: [] })).toEqual({ isError: false, parts: [], forModel: 'The tool returned nothing.' });
		expect(readToolResult({}).forModel).toBe('The tool returned nothing.');
	});

	it('keeps text as text: HTML is not interpreted, control and bidi-override characters go', () => {
		const view = readToolResult({ content: [text('<img src=x onerror=alert(1)>\u0000 \u202eevil\u202c\n\tok\u001b[31m')] });
		expect(view.parts).toEqual([{ type: 'text', text: '<img src=x onerror=alert(1)> evil\n\tok[31m' }]);
	});

	it('keeps PNG, JPEG, GIF and WebP images, and tells the model of each in a placeholder', () => {
		const view = readToolResult({ content: [{ type: 'image', mimeType: 'image/png', data: PNG }, text('A tiny image')] });
		expect(view.parts[0]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG });
		expect(view.forModel).toBe('[image: image/png, 70 bytes]\n\nA tiny image');
		const big = 'A'.repeat(16_384);
		expect(readToolResult({ content: [{ type: 'image', mimeType: 'image/webp', data: big }] }).forModel).toBe('[image: image/webp, 12 KB]');
	});

	it.each([
		['an SVG (it can run script)', { mimeType: 'image/svg+xml', data: PNG }, 'An image (image/svg+xml) was left out: only PNG, JPEG, GIF and WebP images are shown.'],
		['data that is not base64', { mimeType: 'image/png', data: 'not base64!' }, 'An image (image/png) was left out: its data is not valid base64.'],
		['base64 of a wrong length', { mimeType: 'image/png', data: 'abcde' }, 'An image (image/png) was left out: its data is not valid base64.'],
		['empty data', { mimeType: 'image/gif', data: '' }, 'An image (image/gif) was left out: its data is not valid base64.'],
		['an image over 5 MB', { mimeType: 'image/jpeg', data: 'A'.repeat(((MAX_IMAGE_BYTES + 3) / 3) * 4) }, 'An image (image/jpeg, 5 MB) was left out: an image may be at most 5 MB.']
	])('leaves out an image with %s, with a note saying why', (_case, block, note) => {
		const view = readToolResult({ content: [{ type: 'image', ...block }] });
		expect(view.parts).toEqual([{ type: 'note', text: note }]);
		expect(view.forModel).toBe(`[${note}]`);
	});

	it('judges a 50 MB image by its length, before reading a character of it', () => {
		// Not base64 at its end: a reader that scanned it first would say so instead.
		const data = 'A'.repeat(50 * 1024 * 1024 - 4) + '!!!!';
		const view = readToolResult({ content: [{ type: 'image', mimeType: 'image/png', data }] });
		expect(notes(view.parts)).toEqual(['An image (image/png, 37.5 MB) was left out: an image may be at most 5 MB.']);
	});

	it(`shows at most ${MAX_RESULT_IMAGES} images`, () => {
		const view = readToolResult({ content: Array.from({ length: 25 }, () => ({ type: 'image', mimeType: 'image/png', data: PNG })) });
		expect(view.parts.filter((p) => p.type === 'image')).toHaveLength(MAX_RESULT_IMAGES);
		expect(notes(view.parts)).toEqual(['5 more images were left out: a result shows at most 20.']);
	});

	it('leaves out sound with a note', () => {
		const view = readToolResult({ content: [{ type: 'audio', mimeType: 'audio/wav', data: 'A'.repeat(4096) }] });
		expect(view.parts).toEqual([{ type: 'note', text: 'A sound (audio/wav, 3 KB) was left out: sound is not played here.' }]);
	});

	it('keeps http and https links as links, and tells the model their name and address', () => {
		const view = readToolResult({
			content: [
				{ type: 'resource_link', uri: 'https://example.com/a b', name: 'Report <b>2024</b>', description: 'The yearly\u202e report', mimeType: 'text/html' },
				{ type: 'resource_link', uri: 'HTTP://Example.com', name: '' }
			]
		});
		expect(view.parts).toEqual([
			{ type: 'resource_link', uri: 'https://example.com/a%20b', name: 'Report <b>2024</b>', description: 'The yearly report' },
			{ type: 'resource_link', uri: 'http://example.com/', name: 'http://example.com/' }
		]);
		expect(view.forModel).toBe('Report <b>2024</b> <https://example.com/a%20b>\n\nhttp://example.com/ <http://example.com/>');
	});

	it.each([
		['file:///etc/passwd', 'A link to file:///etc/passwd was left out: only http and https links are shown.'],
		['javascript:alert(1)', 'A link to javascript:alert(1) was left out: only http and https links are shown.'],
		['not a url', 'A link to not a url was left out: only http and https links are shown.'],
		[`https://example.com/${'a'.repeat(3000)}`, 'A link was left out: its address is over 2,048 characters.']
	])('leaves out a link to %s with a note', (uri, note) => {
		expect(readToolResult({ content: [{ type: 'resource_link', uri, name: 'x' }] }).parts).toEqual([{ type: 'note', text: note }]);
	});

	it('keeps an embedded text resource, and tells the model its address', () => {
		const view = readToolResult({ content: [{ type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } }] });
		expect(view.parts).toEqual([{ type: 'resource', uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' }]);
		expect(view.forModel).toBe('[resource file:///notes.md, text/markdown]\n# Notes');
	});

	it('leaves out an embedded binary resource with a note', () => {
		const view = readToolResult({ content: [{ type: 'resource', resource: { uri: 'file:///a.zip', mimeType: 'application/zip', blob: 'AAAA' } }] });
		expect(view.parts).toEqual([{ type: 'note', text: 'An embedded file (file:///a.zip, application/zip, 3 bytes) was left out: only text is shown.' }]);
	});

	it('shows structured content as indented JSON, and sends it to the model when there is no text', () => {
		const value = { sum: 5, items: [1, 'two'] };
		const json = JSON.stringify(value, null, 2);
		const only = readToolResult({ content: [], structuredContent: value });
		expect(only.parts).toEqual([{ type: 'structured', json }]);
		expect(only.forModel).toBe(json);
		const withText = readToolResult({ content: [text('{"sum":5}')], structuredContent: value });
		expect(withText.parts).toEqual([text('{"sum":5}'), { type: 'structured', json }]);
		expect(withText.forModel).toBe('{"sum":5}');
	});

	it('reads the result of a server of the first protocol version (toolResult)', () => {
		expect(readToolResult({ toolResult: { ok: true } }).forModel).toBe('{\n  "ok": true\n}');
	});

	it('leaves out structured content that is not JSON data or nests too deep, with a note', () => {
		let deep: unknown = 1;
		for (let i = 0; i < 10_000; i++) deep = [deep];
		expect(notes(readToolResult({ content: [], structuredContent: deep }).parts)).toEqual(['The structured result was left out: it is nested more than 64 levels deep.']);
		const cycle: Record<string, unknown> = {};
		cycle.self = cycle;
		expect(notes(readToolResult({ content: [], structuredContent: cycle }).parts)).toEqual(['The structured result was left out: it is nested more than 64 levels deep.']);
		expect(notes(readToolResult({ content: [], structuredContent: { n: 1n } }).parts)).toEqual(['The structured result was left out: it holds a bigint, which is not JSON data.']);
	});

	it.each([
		['null', null, 'null'],
		['a string', 'hello', 'the string "hello"'],
		['an array', [[text('x')]], 'an array'],
		['a number', 42, '42']
	])('reads %s as a result that could not be read, never throwing', (_case, raw, described) => {
		const message = `The tool's result could not be read: it was ${described}, not an object.`;
		expect(readToolResult(raw)).toEqual({ isError: true, parts: [{ type: 'note', text: message }], forModel: message });
	});

	it('counts the parts it cannot read in one note and keeps the rest', () => {
		const view = readToolResult({ content: [null, 'text', [[[]]], { type: 'video' }, { type: 'text', text: 5 }, text('kept'), { type: 'resource', resource: 'x' }] });
		expect(view.parts).toEqual([text('kept'), { type: 'note', text: '6 unreadable parts were left out (the first: a part that was null).' }]);
		expect(view.forModel).toBe('kept\n\n[6 unreadable parts were left out (the first: a part that was null).]');
	});

	it('says when the content is not a list', () => {
		expect(readToolResult({ content: { type: 'text', text: 'x' } }).parts).toEqual([{ type: 'note', text: "The result's content could not be read: it was an object, not a list." }]);
	});

	it('cuts what the model is sent to 100,000 characters, saying how much was cut', () => {
		const view = readToolResult({ content: [text('a'.repeat(150_000))] });
		expect(view.parts).toEqual([text('a'.repeat(150_000))]);
		expect(view.forModel.length).toBeLessThanOrEqual(MODEL_RESULT_CHARS);
		expect(view.forModel).toMatch(/^a{99800}\n\n\[The result was cut here: 50,200 more characters were left out\. The model is sent at most 100,000 characters of a tool's result\.\]$/);
	});

	it('keeps the error prefix when it cuts an error', () => {
		const view = readToolResult({ content: [text('e'.repeat(200_000))], isError: true });
		expect(view.forModel.startsWith('The tool reported an error: eee')).toBe(true);
		expect(view.forModel.length).toBeLessThanOrEqual(MODEL_RESULT_CHARS);
	});

	it('reads 50 MB of text, keeping 1,000,000 characters for display and saying how much was cut', () => {
		const huge = 'x'.repeat(50 * 1024 * 1024);
		const view = readToolResult({ content: [text(huge), text('after'), { type: 'resource', resource: { uri: 'file:///a', text: 'more' } }] });
		const left = huge.length - STORED_RESULT_CHARS + 'after'.length + 'more'.length;
		expect(view.parts).toEqual([
			text('x'.repeat(STORED_RESULT_CHARS)),
			{ type: 'note', text: `The result was cut for display: ${left.toLocaleString('en')} more characters were left out (a result keeps at most 1,000,000).` }
		]);
		expect(view.forModel.length).toBeLessThanOrEqual(MODEL_RESULT_CHARS);
		const sentLeft = huge.length + 'after'.length + 'more'.length - (MODEL_RESULT_CHARS - 200);
		expect(view.forModel.endsWith(`[The result was cut here: ${sentLeft.toLocaleString('en')} more characters were left out. The model is sent at most 100,000 characters of a tool's result.]`)).toBe(true);
	});

	it('shares the display bound among text, resources and structured content', () => {
		const view = readToolResult({
			content: [text('a'.repeat(STORED_RESULT_CHARS - 10)), { type: 'resource', resource: { uri: 'u', text: 'b'.repeat(30) } }],
			structuredContent: { c: 1 }
		});
		expect(view.parts.slice(0, 2)).toEqual([text('a'.repeat(STORED_RESULT_CHARS - 10)), { type: 'resource', uri: 'u', text: 'b'.repeat(10) }]);
		expect(notes(view.parts)).toEqual([`The result was cut for display: ${(20 + JSON.stringify({ c: 1 }, null, 2).length).toLocaleString('en')} more characters were left out (a result keeps at most 1,000,000).`]);
	});

	it(`shows at most ${MAX_RESULT_PARTS.toLocaleString('en')} parts of a result of a million`, () => {
		const content = Array.from({ length: 1_000_000 }, () => text('a'));
		const view = readToolResult({ content });
		expect(view.parts).toHaveLength(MAX_RESULT_PARTS + 1);
		expect(notes(view.parts)).toEqual(['999,000 more parts were left out: a result shows at most 1,000.']);
	});

	it('never cuts inside an emoji', () => {
		const view = readToolResult({ content: [text(`${'a'.repeat(STORED_RESULT_CHARS - 1)}🙂`)] });
		expect(view.parts[0]).toEqual(text('a'.repeat(STORED_RESULT_CHARS - 1)));
	});
});
