// Click delegation for rendered Markdown: one listener on the container handles every
// "Load image" placeholder and "Copy code" button, however often the HTML is re-rendered.

import { safeImageSrc } from './safe-url';

/** Swaps a remote-image placeholder for the real image; only now does the browser fetch it. */
export function loadImage(button: HTMLElement): HTMLImageElement | null {
	// Re-checked here because the attribute lives in the DOM, where anything could edit it.
	const src = safeImageSrc(button.dataset.src ?? '');
	if (!src) return null;
	const img = document.createElement('img');
	img.alt = button.dataset.alt ?? '';
	if (button.title) img.title = button.title;
	// The image host learns nothing about which chat, or which app, displayed it.
	img.referrerPolicy = 'no-referrer';
	img.decoding = 'async';
	img.src = src;
	button.replaceWith(img);
	return img;
}

/** Copies a code block's text and briefly says so on the button. */
export async function copyCode(button: HTMLElement): Promise<boolean> {
	const code = button.closest('.code-block')?.querySelector('code');
	if (!code) return false;
	try {
		await navigator.clipboard.writeText(code.textContent ?? '');
	} catch {
		button.textContent = 'Copy failed';
		return false;
	}
	button.textContent = 'Copied';
	setTimeout(() => (button.textContent = 'Copy'), 1500);
	return true;
}

/** The container's click handler; buttons make it keyboard-accessible (Enter and Space click). */
export function handleMarkdownClick(event: MouseEvent): void {
	const target = event.target;
	if (!(target instanceof Element)) return;
	const button = target.closest<HTMLElement>('button.remote-image, button.copy-code');
	const container = event.currentTarget;
	if (!button || (container instanceof Node && !container.contains(button))) return;
	// A placeholder may sit inside a link; loading the image must not also follow it.
	event.preventDefault();
	if (button.classList.contains('remote-image')) loadImage(button);
	else void copyCode(button);
}
