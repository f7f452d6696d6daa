// Work that can wait for the page to be idle (code and rows read ahead of a page), run after
// start-up's own idle work and never competing with it.

/** The longest a page that is never idle puts off an idle task: start-up is long over by then. */
const IDLE_WAIT_MS = 5000;

/** Calls `run` in the page's next idle period (a second later where browsers have none); returns the cancel. */
function onIdle(run: () => void): () => void {
	if (typeof requestIdleCallback !== 'function') {
		const timer = setTimeout(run, 1000);
		return () => clearTimeout(timer);
	}
	const handle = requestIdleCallback(run, { timeout: IDLE_WAIT_MS });
	return () => cancelIdleCallback(handle);
}

/**
 * Runs each of `tasks` in an idle period of its own, the first after one idle period has gone
 * by (start-up's own idle work comes first); returns the cancel.
 */
export function whenIdle(tasks: (() => unknown)[]): () => void {
	let cancel = () => {};
	const next = (queue: (() => unknown)[]) => {
		cancel = onIdle(() => {
			const [task, ...rest] = queue;
			void task?.();
			if (rest.length) next(rest);
		});
	};
	cancel = onIdle(() => next(tasks));
	return () => cancel();
}
