// What an isolated plugin's ctx sends the page is its own copy, made when the plugin called:
// a getter of the plugin's runs then, once, and never again when the message is sent, and a
// later change to the plugin's object changes nothing that was sent.
import { describe, expect, it } from 'vitest';
import { createRemoteContext, type PageLink } from './remote-context';
import type { ContextNotice, ContextQuestion } from './wire-protocol';

function openContext() {
	const asked: ContextQuestion[] = [];
	const told: ContextNotice[] = [];
	const page: PageLink = {
		ask: async (message) => void asked.push(message),
		tell: (message) => void told.push(message)
	};
	const link = createRemoteContext({ pluginId: 'p', manifest: null, page, handlers: new Map(), has: () => false });
	return { link, asked, told };
}

/** An object whose `text` is a getter counting its reads. */
function counted() {
	const state = { reads: 0 };
	const value = {
		get text() {
			state.reads++;
			return `read ${state.reads}`;
		}
	};
	return { state, value };
}

describe('the isolated ctx', () => {
	it("sends a copy of a tool's name and description, read once when it was registered", () => {
		const { link } = openContext();
		const name = counted();
		const description = counted();
		link.ctx.register_tool({ name: name.value as never, description: description.value as never, handler: () => 'ran' });
		const [record] = link.started();
		// Sending it (a structured clone, as postMessage makes) runs none of the plugin's getters.
		structuredClone(record);
		expect([name.state.reads, description.state.reads]).toEqual([1, 1]);
		expect(record).toEqual({ kind: 'tool', handle: 1, name: { text: 'read 1' }, description: { text: 'read 1' }, parameters: undefined });
	});

	it('refuses a tool whose name cannot be copied, where it is registered', () => {
		const { link } = openContext();
		expect(() => link.ctx.register_tool({ name: { call: () => 1 } as never, handler: () => 'ran' })).toThrow(/its name and description must be text/);
		expect(link.started()).toEqual([]);
	});

	it('sends a storage key prefix as text, read once', async () => {
		const { link, asked } = openContext();
		const prefix = counted();
		await link.ctx.storage.keys(prefix.value as never);
		expect(asked).toEqual([{ t: 'storage', op: 'keys', key: '[object Object]' }]);
		await link.ctx.storage.keys('notes/');
		await link.ctx.storage.keys();
		expect(asked.slice(1)).toEqual([
			{ t: 'storage', op: 'keys', key: 'notes/' },
			{ t: 'storage', op: 'keys', key: undefined }
		]);
	});
});
