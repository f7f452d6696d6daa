import { describe, expect, it } from 'vitest';
import { isPrecached } from './precache-filter';

describe('isPrecached', () => {
	it("keeps KaTeX's WOFF2 fonts for offline math, and leaves out the WOFF and TrueType copies no browser here asks for", () => {
		expect(isPrecached('/_app/immutable/assets/KaTeX_Main-Regular.B22Nviop.woff2')).toBe(true);
		expect(isPrecached('/_app/immutable/assets/KaTeX_Main-Regular.Dr94JaBh.woff')).toBe(false);
		expect(isPrecached('/_app/immutable/assets/KaTeX_Size3-Regular.DgpXs0kz.ttf')).toBe(false);
		expect(isPrecached('/_app/immutable/assets/render-tex.ru-YNz-V.css')).toBe(true);
	});

	it('leaves PDF.js out, to be fetched when the first PDF is attached, and keeps other worker chunks', () => {
		expect(isPrecached('/_app/immutable/workers/chunks/pdfjs-BxQ1a2c3.js')).toBe(false);
		expect(isPrecached('/_app/immutable/workers/chunks/BxQ1a2c3.js')).toBe(true);
		expect(isPrecached('/_app/immutable/workers/attachment.worker-Cq9fP0aa.js')).toBe(true);
	});
});
