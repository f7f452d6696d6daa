// The page's end of one plugin's isolated context: the only port the page listens on for that
// plugin. It asks the context (and reads each answer with a checker made for that question),
// serves the few requests a plugin may make, and treats everything else that arrives as hostile:
// ports are closed unread, messages not of the protocol are dropped and counted, and a context
// that floods the page or sends what its runtime never would is reported for stopping. Given an
// inbox (the plugin broker's), a message is only looked at for its ports and counted when it
// arrives, and read (copied out, checked, served) when the inbox gives it its turn.
import { FLOOD_MESSAGES_PER_SECOND, toWireError, type Answer, type ContextRequest, type PageNotice, type PageQuestion, type PageRequest, type WireError } from './wire-protocol';
import { readContextMessage } from './read-context-message';
import { MAX_PENDING_REQUESTS, tooManyPendingMessage } from '../plugin-budgets';

export interface ChannelEvents {
	/** The context must be stopped (it flooded the page, or sent what its runtime never would); called once. */
	onViolation(reason: string): void;
	/** A message was dropped and counted. */
	onRefused(why: string): void;
}

/** Where messages wait to be read; `push` is false when one was dropped unread (the inbox counts it). */
export interface MessageInbox {
	push(read: () => number): boolean;
	close(): void;
}

/** Serves one checked request; a request that wants an answer gets what this resolves to. */
export type RequestHandler = (request: ContextRequest) => unknown;

interface Pending {
	resolve(value: unknown): void;
	reject(error: Error): void;
	read(value: unknown): unknown;
}

export class PluginChannel {
	#pending = new Map<number, Pending>();
	#next = 1;
	#handler: RequestHandler | null = null;
	#inflight = 0;
	#windowStart = -Infinity;
	#inWindow = 0;
	#closed = false;
	readonly #port: MessagePort;
	readonly #events: ChannelEvents;
	readonly #now: () => number;
	readonly #inbox: MessageInbox | null;

	constructor(port: MessagePort, events: ChannelEvents, now: () => number = () => performance.now(), inbox: MessageInbox | null = null) {
		this.#port = port;
		this.#events = events;
		this.#now = now;
		this.#inbox = inbox;
		port.onmessage = (event) => this.#receive(event);
		port.onmessageerror = () => this.#refuse('a message that could not be read');
	}

	/** Asks the context; `read` checks the answer's value (a throw there refuses the answer). */
	ask<T>(question: PageQuestion, read: (value: unknown) => T): Promise<T> {
		if (this.#closed) return Promise.reject(new Error("The plugin's context is closed."));
		const id = this.#next++;
		return new Promise<T>((resolve, reject) => {
			this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, read });
			this.#post({ ...question, id });
		});
	}

	/** Tells the context something that needs no answer. */
	tell(message: PageNotice): void {
		if (!this.#closed) this.#post(message);
	}

	/** From now on, the context's requests go to `handler`. Until then they are refused. */
	serve(handler: RequestHandler): void {
		this.#handler = handler;
	}

	/** Stops listening; every question still waiting fails with `error`. */
	close(error: Error): void {
		if (this.#closed) return;
		this.#closed = true;
		this.#port.onmessage = null;
		this.#port.onmessageerror = null;
		this.#port.close();
		this.#inbox?.close();
		for (const pending of this.#pending.values()) pending.reject(error);
		this.#pending.clear();
	}

	#post(message: PageRequest | Answer): void {
		try {
			this.#port.postMessage(message);
		} catch (error) {
			// Only the page's own data goes out; one that cannot be copied is that call's failure.
			if ('id' in message && message.t !== 'answer') this.#settle(message.id, { ok: false, error: toWireError(error, false) });
			else throw error;
		}
	}

	#receive(event: MessageEvent): void {
		if (this.#closed) return;
		// The page never takes a port from a plugin: closed unread.
		for (const port of event.ports) port.close();
		if (this.#flooding()) return;
		if (event.ports.length > 0) return this.#refuse('a message carrying a port');
		// Its data stays uncopied until read: a message dropped here costs no more than its arrival.
		if (this.#inbox) this.#inbox.push(() => this.#read(event));
		else this.#read(event);
	}

	/** Reads one message that arrived; returns the bytes it held. */
	#read(event: MessageEvent): number {
		if (this.#closed) return 0;
		const reading = readContextMessage(event.data);
		if ('oversized' in reading) {
			this.#violate(`it sent ${reading.oversized}, which its runtime never sends`);
			return reading.bytes;
		}
		if ('refused' in reading) {
			this.#refuse(reading.refused);
			return reading.bytes;
		}
		const message = reading.message;
		if (message.t !== 'answer') this.#serveRequest(message);
		else if (!this.#pending.has(message.id)) this.#refuse('an answer to nothing the page asked');
		else this.#settle(message.id, message);
		return reading.bytes;
	}

	#settle(id: number, answer: { ok: true; value: unknown } | { ok: false; error: WireError }): void {
		const pending = this.#pending.get(id);
		if (!pending) return;
		this.#pending.delete(id);
		if (!answer.ok) return pending.reject(toError(answer.error));
		let value: unknown;
		try {
			value = pending.read(answer.value);
		} catch (error) {
			const why = error instanceof Error ? error.message : String(error);
			this.#refuse(`an answer the page does not accept (${why})`);
			return pending.reject(new Error(`The plugin's context answered with something the page does not accept: ${why}`));
		}
		pending.resolve(value);
	}

	#serveRequest(request: ContextRequest): void {
		const handler = this.#handler;
		if (!handler) return this.#refuse(`a ${request.t} request before register(ctx) ran`);
		if (request.t === 'log' || request.t === 'unregister' || request.t === 'tool-refused') {
			try {
				void Promise.resolve(handler(request)).catch(() => {});
			} catch {
				// A request the page could not serve is that request's loss, never the page's.
			}
			return;
		}
		const { id } = request;
		if (this.#inflight >= MAX_PENDING_REQUESTS) {
			return this.#post({ t: 'answer', id, ok: false, error: { name: 'Error', message: tooManyPendingMessage() } });
		}
		this.#inflight++;
		new Promise((resolve) => resolve(handler(request)))
			.then(
				(value) => this.#answer({ t: 'answer', id, ok: true, value }),
				(error: unknown) => this.#answer({ t: 'answer', id, ok: false, error: toWireError(error, false) })
			)
			.finally(() => this.#inflight--);
	}

	#answer(answer: Answer): void {
		if (this.#closed) return;
		try {
			this.#port.postMessage(answer);
		} catch (error) {
			if (answer.ok) this.#answer({ t: 'answer', id: answer.id, ok: false, error: toWireError(error, false) });
		}
	}

	#flooding(): boolean {
		const now = this.#now();
		if (now - this.#windowStart >= 1000) {
			this.#windowStart = now;
			this.#inWindow = 0;
		}
		if (++this.#inWindow <= FLOOD_MESSAGES_PER_SECOND) return false;
		this.#violate(`it sent the page more than ${FLOOD_MESSAGES_PER_SECOND.toLocaleString('en')} messages in one second`);
		return true;
	}

	#refuse(why: string): void {
		this.#events.onRefused(why);
	}

	#violate(reason: string): void {
		if (this.#closed) return;
		this.close(new Error(`The plugin was stopped: ${reason}.`));
		this.#events.onViolation(reason);
	}
}

/** An error from the context, rebuilt in the page from its checked text. */
function toError(wire: WireError): Error {
	const error = new Error(wire.message);
	error.name = wire.name;
	if (wire.stack !== undefined) error.stack = wire.stack;
	return error;
}
