// The type an attached PDF is stored and sent as. Its own module: sending needs only this, and
// the signature check (pdf-signature.ts) then stays out of the code that loads with the page.
export const PDF_TYPE = 'application/pdf';
