import { describe, expect, it } from 'vitest';
import { hostOf, safeImageSrc, safeLinkHref } from './safe-url';

describe('safeImageSrc', () => {
	it('allows only absolute http(s) URLs', () => {
		expect(safeImageSrc('https://img.example/a.png')).toBe('https://img.example/a.png');
		expect(safeImageSrc('HTTP://img.example/a.png')).toBe('http://img.example/a.png');
		for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/a.png', '//x.example/a.png', 'blob:https://x/y', 'file:///etc/passwd', ''])
			expect(safeImageSrc(bad)).toBeNull();
	});
});

describe('safeLinkHref', () => {
	it('decodes entities before checking the scheme', () => {
		expect(safeLinkHref('&#106;avascript:alert(1)')).toBeNull();
		expect(safeLinkHref('javascript&colon;alert(1)')).toBeNull();
		expect(safeLinkHref('https://e.com/?a=1&amp;b=2')).toBe('https://e.com/?a=1&b=2');
	});

	it('sees through whitespace and control characters the URL parser ignores', () => {
		expect(safeLinkHref(' \tjava\nscript:alert(1)')).toBeNull();
		expect(safeLinkHref('\u0001javascript:alert(1)')).toBeNull();
	});

	it('keeps plain anchors only', () => {
		expect(safeLinkHref('#section-2')).toBe('#section-2');
		expect(safeLinkHref('#a"onclick="x')).toBeNull();
	});
});

describe('hostOf', () => {
	it('names the host a placeholder would contact', () => {
		expect(hostOf('https://img.example:8443/a.png')).toBe('img.example:8443');
	});
});
