// Whether bytes that came from elsewhere (a sync server) may be kept as a Blob of a message: an
// image's and a PDF's must begin as their type says, and a type a browser would run as a page is refused,
// since a Blob opened full size runs in this app's origin.
import { IMAGE_TYPES, looksLikeImage } from '../hooks/image-bytes';
import { hasPdfSignature, PDF_HEADER_WITHIN, PDF_TYPE } from '../attachments/pdf-signature';

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const ACTIVE = /html|xml|svg|script/i;

/** Whether a browser would run bytes of this type as a page or a script (HTML, SVG, XML, JavaScript). */
export const isActiveType = (type: string): boolean => ACTIVE.test(type);

export async function isKeepableBlob(type: string, data: Blob): Promise<boolean> {
	if (!MIME_TYPE.test(type) || isActiveType(type)) return false;
	if (type === PDF_TYPE) return hasPdfSignature(new Uint8Array(await data.slice(0, PDF_HEADER_WITHIN).arrayBuffer()));
	if (!IMAGE_TYPES.has(type)) return true;
	return looksLikeImage(type, new Uint8Array(await data.slice(0, 16).arrayBuffer()));
}
