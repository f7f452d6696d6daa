// The page's end of a plugin's context, facing a context that says whatever it likes: only the
// protocol's requests reach the page's handler, built afresh from checked fields; property
// paths, proxies and ports get nowhere; answers are read with the checker of their question;
// floods and oversized messages stop the context, and everything else is dropped and counted.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOOD_MESSAGES_PER_SECOND } from './wire-protocol';
import { PluginChannel, type RequestHandler } from './plugin-channel';
import { readIgnored, readTrue, readValue } from './read-answers';
import { MAX_PENDING_REQUESTS } from '../plugin-budgets';

interface Hostile {
	channel: PluginChannel;
	/** The context's end of the port: everything posted here is what a plugin could post. */
	context: MessagePort;
	handled: unknown[];
	refused: string[];
	violations: string[];
	/** What the page posted to the context. */
	received: unknown[];
}

const open: MessageChannel[] = [];
afterEach(() => {
	for (const pair of open.splice(0)) {
		pair.port1.close();
		pair.port2.close();
	}
	delete (Object.prototype as Record<string, unknown>).polluted;
});

function hostile(handler?: RequestHandler): Hostile {
	const pair = new MessageChannel();
	open.push(pair);
	const refused: string[] = [];
	const violations: string[] = [];
	const handled: unknown[] = [];
	const received: unknown[] = [];
	const channel = new PluginChannel(pair.port1, { onRefused: (why) => refused.push(why), onViolation: (why) => violations.push(why) });
	channel.serve(
		handler ??
			((request) => {
				handled.push(request);
				return 'served';
			})
	);
	pair.port2.onmessage = (event) => received.push(event.data);
	return { channel, context: pair.port2, handled, refused, violations, received };
}

/** Lets every posted message arrive and be handled. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the page's end of a plugin's context", () => {
	it('never walks a property path: comlink-style GET, SET and APPLY through __proto__ and constructor change nothing', async () => {
		const h = hostile();
		const { port1: proxyPort } = new MessageChannel();
		h.context.postMessage({ id: 'a', type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: 'yes' } });
		h.context.postMessage({ id: 'b', type: 'GET', path: ['constructor', 'prototype'] });
		h.context.postMessage(
			{ id: 'c', type: 'APPLY', path: ['__proto__', '__defineSetter__'], argumentList: [{ type: 'RAW', value: 'authorization' }, { type: 'HANDLER', name: 'proxy', value: proxyPort }] },
			[proxyPort]
		);
		// The same through the protocol's own kinds.
		h.context.postMessage({ t: 'storage', id: 1, op: 'set', key: 'k', value: JSON.parse('{"__proto__": {"polluted": "yes"}}') });
		h.context.postMessage({ t: '__proto__', id: 2 });
		h.context.postMessage({ t: 'constructor', id: 3 });
		await settle();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getOwnPropertyDescriptor(Object.prototype, 'authorization')).toBeUndefined();
		const headers: Record<string, string> = {};
		headers.authorization = 'Bearer key';
		expect(Object.getOwnPropertyDescriptor(headers, 'authorization')?.value).toBe('Bearer key');
		expect(h.handled).toEqual([]);
		expect(h.refused).toHaveLength(6);
		expect(h.refused).toContain('a message carrying a port');
		expect(h.refused.join('\n')).toMatch(/__proto__/);
		expect(h.violations).toEqual([]);
	});

	it('passes on only the fields of each kind, rebuilt: extra fields never reach the handler', async () => {
		const h = hostile();
		h.context.postMessage({ t: 'storage', id: 1, op: 'set', key: 'note', value: { text: 'mine' }, plugin_id: 'someone-else', then: 'x' });
		h.context.postMessage({ t: 'log', level: 'warn', args: ['hello', { n: 1 }], dropped: 3, extra: 'ignored' });
		h.context.postMessage({ t: 'unregister', handle: 4, path: ['__proto__'] });
		await settle();
		expect(h.handled).toEqual([
			// With the size of the message that carried the value, as the page measured it.
			{ t: 'storage', id: 1, op: 'set', key: 'note', value: { text: 'mine' }, bytes: expect.any(Number) },
			{ t: 'log', level: 'warn', args: ['hello', { n: 1 }], dropped: 3 },
			{ t: 'unregister', handle: 4 }
		]);
		// The storage request was answered on the same port, with the handler's value.
		expect(h.received).toEqual([{ t: 'answer', id: 1, ok: true, value: 'served' }]);
		expect(h.refused).toEqual([]);
	});

	it('drops and counts malformed requests without serving them', async () => {
		const h = hostile();
		const malformed: unknown[] = [
			'just text',
			null,
			[1, 2],
			{ t: 'storage', id: 0, op: 'set', key: 'k' },
			{ t: 'storage', id: 1.5, op: 'get', key: 'k' },
			{ t: 'storage', id: 2, op: 'drop-table', key: 'k' },
			{ t: 'storage', id: 3, op: 'get', key: 'k'.repeat(2000) },
			{ t: 'log', level: 'debug', args: [] },
			{ t: 'log', level: 'info', args: 'not a list' },
			{ t: 'register', id: 4, record: { kind: 'hook', handle: -1, name: 'pre_llm_call' } },
			{ t: 'register', id: 5, record: { kind: 'script', handle: 1, name: 'x' } },
			{ t: 'register', id: 6, record: { kind: 'command', handle: 1, name: 'n'.repeat(500) } },
			{ t: 'log', level: 'info', args: [new Blob(['x'])] },
			{ t: 'halt', reason: 'because' }
		];
		for (const message of malformed) h.context.postMessage(message);
		await settle();
		expect(h.handled).toEqual([]);
		expect(h.refused).toHaveLength(malformed.length);
		expect(h.violations).toEqual([]);
	});

	it('reads each answer with the checker of its question, and refuses answers to nothing it asked', async () => {
		const pair = new MessageChannel();
		open.push(pair);
		const refused: string[] = [];
		const channel = new PluginChannel(pair.port1, { onRefused: (why) => refused.push(why), onViolation: () => {} });
		pair.port2.onmessage = ({ data }) => {
			if (data.t === 'ping') pair.port2.postMessage({ t: 'answer', id: data.id, ok: true, value: 'pong' });
			if (data.t === 'call' && data.handle === 1) pair.port2.postMessage({ t: 'answer', id: data.id, ok: true, value: { ignored: 'evil' } });
			if (data.t === 'call' && data.handle === 2) pair.port2.postMessage({ t: 'answer', id: data.id, ok: false, error: { name: 'TypeError', message: 'm'.repeat(100_000), stack: 7 } });
			if (data.t === 'call' && data.handle === 3) pair.port2.postMessage({ t: 'answer', id: data.id, ok: true, value: { text: 'fine' } });
		};
		await expect(channel.ask({ t: 'ping' }, readTrue)).rejects.toThrow(/does not accept/);
		await expect(channel.ask({ t: 'call', handle: 1, args: [] }, readIgnored)).rejects.toThrow(/does not accept/);
		const failure = await channel.ask({ t: 'call', handle: 2, args: [] }, readValue).catch((error: Error) => error);
		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).name).toBe('TypeError');
		expect((failure as Error).message.length).toBeLessThanOrEqual(4000);
		await expect(channel.ask({ t: 'call', handle: 3, args: [] }, readValue)).resolves.toEqual({ text: 'fine' });
		pair.port2.postMessage({ t: 'answer', id: 999, ok: true, value: 1 });
		await settle();
		expect(refused).toEqual([expect.stringMatching(/does not accept/), expect.stringMatching(/does not accept/), 'an answer to nothing the page asked']);
	});

	it('stops a context that sends a message over the size limit, and one that floods the page', async () => {
		const big = hostile();
		big.context.postMessage({ t: 'log', level: 'info', args: ['x'.repeat(2_000_000)], dropped: 0 });
		await settle();
		expect(big.violations).toEqual([expect.stringMatching(/a message over 1\.1 MB/)]);
		expect(big.handled).toEqual([]);
		await expect(big.channel.ask({ t: 'ping' }, readTrue)).rejects.toThrow(/closed/);

		const flood = hostile();
		for (let i = 0; i < FLOOD_MESSAGES_PER_SECOND + 50; i++) flood.context.postMessage({ t: 'log', level: 'info', args: [i], dropped: 0 });
		await vi.waitFor(() => expect(flood.violations).toEqual([expect.stringMatching(/more than 2,000 messages in one second/)]));
		expect(flood.handled.length).toBe(FLOOD_MESSAGES_PER_SECOND);
	});

	it('answers at most MAX_PENDING_REQUESTS storage calls at once; the rest are refused at once', async () => {
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const h = hostile(() => held);
		for (let id = 1; id <= MAX_PENDING_REQUESTS + 3; id++) h.context.postMessage({ t: 'storage', id, op: 'get', key: 'k' });
		await settle();
		expect(h.received).toHaveLength(3);
		expect(h.received).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ ok: false, error: expect.objectContaining({ message: expect.stringMatching(/Too many calls/) }) })));
		release();
		await settle();
		expect(h.received).toHaveLength(MAX_PENDING_REQUESTS + 3);
	});
});
