// Main-thread handle on the attachment worker: started on the first attachment (opening the app
// loads none of it), kept for the visit, and replaced on the next call if it crashed. A refusal
// arrives as an AttachmentError, its message ready to show at the attachment's chip.
import { wrap, type Remote } from 'comlink';
import type { AttachmentApi } from './attachment-api';
import { AttachmentError, isAttachmentError } from './attachment-error';
import type { PdfText, PdfTextLimits } from './extract-pdf-text';
import type { ImageLimits } from './image-limits';
import type { PreparedImage } from './prepare-image';

interface Running {
	worker: Worker;
	remote: Remote<AttachmentApi>;
	/** Rejects when the worker fails, so no call waits for an answer that cannot come. */
	dead: Promise<never>;
}

let running: Running | null = null;

function start(): Running {
	const worker = new Worker(new URL('./attachment.worker.ts', import.meta.url), { type: 'module' });
	const dead = new Promise<never>((_, reject) => {
		const fail = (reason: string) => {
			if (running?.worker === worker) running = null;
			worker.terminate();
			reject(new AttachmentError(`The attachment could not be read: ${reason}. Try again.`));
		};
		worker.addEventListener('error', (event) => fail(event.message || 'the background reader stopped'));
		worker.addEventListener('messageerror', () => fail('a message could not be read'));
	});
	// A worker that fails while idle leaves nobody waiting on `dead`.
	dead.catch(() => {});
	return { worker, remote: wrap<AttachmentApi>(worker), dead };
}

async function call<T>(work: (remote: Remote<AttachmentApi>) => Promise<T>): Promise<T> {
	running ??= start();
	const { remote, dead } = running;
	try {
		return await Promise.race([work(remote), dead]);
	} catch (error) {
		throw isAttachmentError(error) && !(error instanceof AttachmentError) ? new AttachmentError(error.message) : error;
	}
}

/** `blob` (a File keeps its name for messages) decoded and, if larger than `limits`, scaled down in the worker. */
export function prepareImageInWorker(blob: Blob, limits: ImageLimits): Promise<PreparedImage> {
	return call((remote) => remote.prepareImage(blob, limits));
}

/** The text of the PDF `blob`, read in the worker (PDF.js loads with the first PDF). */
export function extractPdfTextInWorker(blob: Blob, limits?: Partial<PdfTextLimits>): Promise<PdfText> {
	return call((remote) => remote.extractPdfText(blob, limits));
}

/** Stops the worker (it starts again on the next call). */
export function stopAttachmentWorker(): void {
	running?.worker.terminate();
	running = null;
}
