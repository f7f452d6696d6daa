// Web Worker entry: decodes and scales images and reads PDFs off the page's thread, so a
// 12-megapixel photo never stalls typing or scrolling.
import { expose } from 'comlink';
import { createAttachmentApi } from './attachment-api';

expose(createAttachmentApi());
