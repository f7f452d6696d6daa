// An attached image the Message box keeps must also pass an import's check, or an export of
// the session could not be imported again.
import { expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../hooks/image-bytes';
import { ATTACH_HINT, MAX_ATTACHED_IMAGE_BYTES } from './attachment-limits';

it('keeps no image larger than an import takes, and says the limits on the Attach button', () => {
	expect(MAX_ATTACHED_IMAGE_BYTES).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
	expect(ATTACH_HINT).toBe('Attach images (PNG, JPEG, GIF, WebP; larger ones are scaled down), text files (up to 1 MB each) or PDFs (up to 20 MB each), at most 10 to a message');
});
