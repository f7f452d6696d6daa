// How much a message may carry: the bounds the Message box says at each chip and an import
// holds a file to. Plain numbers, no imports: the Attach button's hint loads with the page.

/** Attachments one message takes. */
export const MAX_ATTACHMENTS = 10;
/** The largest image, as stored (every provider takes 5 MB; an import takes no more, see MAX_IMAGE_BYTES). */
export const MAX_ATTACHED_IMAGE_BYTES = 5 * 1024 * 1024;
/** The largest image file taken to be read and scaled down (a photo of any camera is far smaller). */
export const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;
/** The largest text file: far more text than any context window holds. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;
/**
 * The largest PDF. Anthropic takes requests of up to 32 MB and base64 makes a file a third
 * larger, so a PDF of 20 MB still fits one request.
 */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
/** Everything one message carries together. */
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;

/** The limits in words, for the Attach button. */
export const ATTACH_HINT = `Attach images (PNG, JPEG, GIF, WebP; larger ones are scaled down), text files (up to ${MAX_TEXT_FILE_BYTES / 1024 / 1024} MB each) or PDFs (up to ${MAX_PDF_BYTES / 1024 / 1024} MB each), at most ${MAX_ATTACHMENTS} to a message`;
