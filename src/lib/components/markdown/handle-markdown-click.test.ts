import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyCode } from './handle-markdown-click';

// Node has no DOM: a code block is stood in for by the few members copyCode touches.
function codeBlock(text: string) {
	const code = { textContent: text };
	const status = { textContent: '' };
	const block = {
		querySelector: (selector: string) => ({ code, '.copy-status': status })[selector] ?? null
	};
	const button = { textContent: 'Copy code', closest: (selector: string) => (selector === '.code-block' ? block : null) };
	return { button, status, element: button as unknown as HTMLElement };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

describe('copyCode', () => {
	it('copies the code, announces "Copied" politely, then reads "Copy code" again', async () => {
		const writeText = vi.fn(async () => {});
		vi.stubGlobal('navigator', { clipboard: { writeText } });
		const { button, status, element } = codeBlock('let a = 1;');
		expect(await copyCode(element)).toBe(true);
		expect(writeText).toHaveBeenCalledWith('let a = 1;');
		expect(button.textContent).toBe('Copied');
		expect(status.textContent).toBe('Copied');
		await vi.advanceTimersByTimeAsync(1500);
		expect(button.textContent).toBe('Copy code');
		expect(status.textContent).toBe('');
	});

	it('announces a failed copy, and offers the button again afterwards', async () => {
		vi.stubGlobal('navigator', { clipboard: { writeText: async () => Promise.reject(new Error('denied')) } });
		const { button, status, element } = codeBlock('x');
		expect(await copyCode(element)).toBe(false);
		expect(button.textContent).toBe('Copy failed');
		expect(status.textContent).toBe('Copy failed');
		await vi.advanceTimersByTimeAsync(3000);
		expect(button.textContent).toBe('Copy code');
	});

	it('keeps "Copied" for the full time after a second click', async () => {
		vi.stubGlobal('navigator', { clipboard: { writeText: async () => {} } });
		const { button, element } = codeBlock('x');
		await copyCode(element);
		await vi.advanceTimersByTimeAsync(1000);
		await copyCode(element);
		await vi.advanceTimersByTimeAsync(1000);
		expect(button.textContent).toBe('Copied');
	});
});
