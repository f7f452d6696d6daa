// Tools as the meter counts them: each tool on its own, as the JSON a request carries of it.
// Counted one by one, each count is remembered by the context worker's client (a tool is far
// smaller than the whole list), says which tools cost what (and so which plugin's), and is
// not counted again while the same tools are offered. The text of a tool object is made once.
const texts = new WeakMap<object, string>();

export function toolTexts(tools: readonly unknown[] | undefined): string[] {
	return (tools ?? []).map((tool) => {
		if (typeof tool !== 'object' || tool === null) return JSON.stringify(tool) ?? '';
		let text = texts.get(tool);
		if (text === undefined) {
			text = JSON.stringify(tool);
			texts.set(tool, text);
		}
		return text;
	});
}
