// A plugin's isolated context as the page opens it: the port its runtime listens on, a way to
// learn that it failed to start, and a way to end it.

/** A fresh isolated context, with the page's end of its channel (handed on to the plugin broker). */
export interface SandboxChannel {
	port: MessagePort;
	/** Rejects if the context could not start (for example, a policy refused its worker). */
	failed: Promise<never>;
	/** Ends the context and everything running in it. */
	terminate(): void;
}
