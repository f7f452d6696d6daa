// Click delegation for rendered Markdown: one listener on the container handles every
// "Load image" placeholder and "Copy code" button, however often the HTML is re-rendered.

import { COPY_LABEL } from './copy-label';
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

const resets = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/**
 * Copies a code block's text and briefly says so: on the button for the eye, and in the
 * block's polite live region for screen readers (a changed button name alone goes unspoken).
 */
export async function copyCode(button: HTMLElement): Promise<boolean> {
	const block = button.closest('.code-block');
	const code = block?.querySelector('code');
	if (!code) return false;
	let copied = true;
	try {
		await navigator.clipboard.writeText(code.textContent ?? '');
	} catch {
		copied = false;
	}
	const status = block?.querySelector('.copy-status');
	const result = copied ? 'Copied' : 'Copy failed';
	button.textContent = result;
	if (status) status.textContent = result;
	clearTimeout(resets.get(button));
	resets.set(
		button,
		setTimeout(() => {
			button.textContent = COPY_LABEL;
			// Emptying the region is not announced; it only readies it for the next copy.
			if (status) status.textContent = '';
		}, copied ? 1500 : 3000)
	);
	return copied;
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
