// A tool server's instructions reach the model in the system prompt, each under a heading that
// names its server, after the user's own prompt; "What the model received" splits them out
// again, so each shows as a part of its own.

const HEADING = (server: string) => `\n\n## Instructions from the tool server "${server}"\n\n`;
const SPLIT = /\n\n## Instructions from the tool server "([^"\n]{0,200})"\n\n/;

export function withServerInstructions(systemPrompt: string, instructions: ReadonlyArray<{ server: string; text: string }>): string {
	return instructions.reduce((prompt, { server, text }) => `${prompt}${HEADING(server.replace(/["\n]/g, ''))}${text}`, systemPrompt);
}

/** The system prompt's parts: the prompt itself, then each server's instructions. */
export function splitServerInstructions(systemPrompt: string): Array<{ server: string | null; text: string }> {
	const pieces = systemPrompt.split(SPLIT);
	const parts: Array<{ server: string | null; text: string }> = [{ server: null, text: pieces[0] }];
	for (let i = 1; i + 1 < pieces.length; i += 2) parts.push({ server: pieces[i], text: pieces[i + 1] });
	return parts;
}
