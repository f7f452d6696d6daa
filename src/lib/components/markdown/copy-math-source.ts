// Copying a selection that holds drawn math gives the formulas back as their TeX, with the
// delimiters they were written with, instead of KaTeX's glyphs (each twice: MathML and HTML).

const DELIMITERS: Record<string, [string, string]> = {
	'math-dollar': ['$', '$'],
	'math-dollars': ['$$', '$$'],
	'math-paren': ['\\(', '\\)'],
	'math-bracket': ['\\[', '\\]']
};

/** The source of a drawn formula, delimiters included, or null when it is not one. */
export function mathSource(element: Element): string | null {
	const tex = element.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
	if (tex == null) return null;
	for (const [name, [open, close]] of Object.entries(DELIMITERS)) {
		if (element.classList.contains(name)) return `${open}${tex}${close}`;
	}
	return `$${tex}$`;
}

/** The document's `copy` handler once math is drawn: leaves the browser's own copy alone where no formula is selected. */
export function copyMathSource(event: ClipboardEvent): void {
	const selection = document.getSelection();
	if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !event.clipboardData) return;
	const range = selection.getRangeAt(0).cloneRange();
	// A selection that starts or ends inside a formula takes the whole formula.
	const mathAround = (node: Node) => (node instanceof Element ? node : node.parentElement)?.closest('.math');
	const first = mathAround(range.startContainer);
	const last = mathAround(range.endContainer);
	if (first) range.setStartBefore(first);
	if (last) range.setEndAfter(last);
	const fragment = range.cloneContents();
	const formulas = fragment.querySelectorAll('.math');
	if (formulas.length === 0) return;
	for (const formula of formulas) {
		const source = mathSource(formula);
		if (source !== null) formula.replaceWith(source);
	}
	// innerText, unlike textContent, keeps the line breaks between paragraphs; it needs layout,
	// so the copy is laid out for a moment, out of sight, where the message's styles apply.
	const scratch = document.createElement('div');
	scratch.style.cssText = 'position:fixed;left:-99999px;top:0;white-space:normal';
	scratch.append(fragment);
	const host = range.commonAncestorContainer;
	((host instanceof Element ? host : host.parentElement) ?? document.body).append(scratch);
	const text = scratch.innerText;
	scratch.remove();
	event.clipboardData.setData('text/plain', text);
	event.preventDefault();
}
