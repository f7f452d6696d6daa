// Chromium's trace of a page's main thread, for the CPU time of each of its tasks. A long task
// is 50 ms from its start to its end; on a busy machine part of that is the thread waiting for
// a core, and its CPU time is what the page itself did. The trace is tied to the page's clock
// (performance.now()) by a performance.mark the page makes when tracing starts.

const CATEGORIES = 'disabled-by-default-devtools.timeline,blink.user_timing';
const ANCHOR = 'bench-trace-anchor';

export async function startTaskTrace(page) {
	const cdp = await page.context().newCDPSession(page);
	const events = [];
	cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
	const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
	await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
	const anchor = await page.evaluate((name) => performance.mark(name).startTime, ANCHOR);
	return { cdp, events, complete, anchor };
}

/** Stops tracing; returns the main thread's tasks, `{ start, wall, cpu }` in ms on the page's clock. */
export async function stopTaskTrace({ cdp, events, complete, anchor }) {
	await cdp.send('Tracing.end');
	await complete;
	await cdp.detach();
	// The mark is made on the page's main thread: its thread is the one to read.
	const mark = events.find((event) => event.name === ANCHOR);
	if (!mark) throw new Error('The trace holds no mark from the page; it cannot be tied to the page clock.');
	const offset = mark.ts / 1000 - anchor;
	return events
		.filter((event) => event.name === 'RunTask' && event.ph === 'X' && event.pid === mark.pid && event.tid === mark.tid)
		.map((event) => ({ start: event.ts / 1000 - offset, wall: event.dur / 1000, cpu: (event.tdur ?? event.dur) / 1000 }));
}
