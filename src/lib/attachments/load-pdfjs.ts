// Loads PDF.js inside the attachment worker, only when a PDF is read: its parser is registered
// first (as globalThis.pdfjsWorker), so PDF.js parses in this same thread instead of starting a
// worker of its own from a URL.
import type * as Pdfjs from 'pdfjs-dist';

export type PdfjsModule = typeof Pdfjs;

let loading: Promise<PdfjsModule> | null = null;

export function loadPdfjs(): Promise<PdfjsModule> {
	loading ??= (async () => {
		await import('pdfjs-dist/build/pdf.worker.mjs');
		return import('pdfjs-dist');
	})();
	return loading;
}
