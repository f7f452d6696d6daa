// The copy button's text, which is also its accessible name: shared by the renderer and the
// click handler, so the handler does not pull the renderer into the first screen's code.
export const COPY_LABEL = 'Copy code';
