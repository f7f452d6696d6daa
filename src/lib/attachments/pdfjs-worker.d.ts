// PDF.js's parser, imported for its side effect (it registers globalThis.pdfjsWorker); it ships no types.
declare module 'pdfjs-dist/build/pdf.worker.mjs';
