// How much a message may carry: the bounds the Message box says at each chip and an import
// holds a file to.
import { MAX_IMAGE_BYTES } from '../hooks/image-bytes';

/** Attachments one message takes. */
export const MAX_ATTACHMENTS = 10;
/** The largest image, as stored (every provider takes 5 MB). */
export const MAX_ATTACHED_IMAGE_BYTES = MAX_IMAGE_BYTES;
/** The largest text file: far more text than any context window holds. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;
/** Everything one message carries together. */
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
