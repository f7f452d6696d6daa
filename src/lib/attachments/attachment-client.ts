// Main-thread handle on the attachment worker: started on the first attachment (opening the app
// loads none of it), kept for the visit, and replaced on the next call if it crashed or got
// stuck. A refusal arrives as an AttachmentError, its message ready to show at the chip.
import { wrap, type Remote } from 'comlink';
import type { AttachmentApi } from './attachment-api';
import { AttachmentError, isAttachmentError } from './attachment-error';
import type { PdfText, PdfTextLimits } from './extract-pdf-text';
import type { ImageLimits } from './image-limits';
import type { PreparedImage } from './prepare-image';

/** How long one file may take: past this the worker is presumed stuck (a hostile PDF) and replaced. */
const TIMEOUT_MS = 60_000;

interface Running {
	worker: Worker;
	remote: Remote<AttachmentApi>;
	/** Rejects once the worker is gone, so no call waits for an answer that cannot come. */
	dead: Promise<never>;
	/** Stops the worker; every call still waiting on it fails with `message`. */
	kill(message: string): void;
}

let running: Running | null = null;

function start(): Running {
	const worker = new Worker(new URL('./attachment.worker.ts', import.meta.url), { type: 'module' });
	let kill: (message: string) => void = () => {};
	const dead = new Promise<never>((_, reject) => {
		kill = (message) => {
			if (running?.worker === worker) running = null;
			worker.terminate();
			reject(new AttachmentError(message));
		};
	});
	// A worker stopped while idle leaves nobody waiting on `dead`.
	dead.catch(() => {});
	const failed = (reason: string) => kill(`The attachment could not be read: ${reason}. Try again.`);
	worker.addEventListener('error', (event) => failed(event.message || 'the background reader stopped'));
	worker.addEventListener('messageerror', () => failed('a message could not be read'));
	return { worker, remote: wrap<AttachmentApi>(worker), dead, kill };
}

async function call<T>(work: (remote: Remote<AttachmentApi>) => Promise<T>): Promise<T> {
	running ??= start();
	const current = running;
	const timer = setTimeout(() => current.kill(`The attachment took longer than ${TIMEOUT_MS / 1000} seconds to read, and was given up.`), TIMEOUT_MS);
	try {
		return await Promise.race([work(current.remote), current.dead]);
	} catch (error) {
		throw isAttachmentError(error) && !(error instanceof AttachmentError) ? new AttachmentError(error.message) : error;
	} finally {
		clearTimeout(timer);
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

/** Stops the worker (it starts again on the next call); a call still waiting fails. */
export function stopAttachmentWorker(): void {
	running?.kill('The attachment was not read: reading was stopped.');
}
