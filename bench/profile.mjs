// Chromium's sampling profiler over the Chrome DevTools Protocol, to say what ran during a long
// task. The page must define window.__profileAnchor (a 3 ms busy loop that returns when it
// started): the first sample inside it ties the profiler's clock to performance.now().

const INTERVAL_US = 200;

export async function startProfile(page) {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Profiler.enable');
	await cdp.send('Profiler.setSamplingInterval', { interval: INTERVAL_US });
	await cdp.send('Profiler.start');
	const anchor = await page.evaluate(() => window.__profileAnchor());
	return { cdp, anchor };
}

/** Stops the profiler; returns its samples on the page's clock with the call tree. */
export async function stopProfile({ cdp, anchor }) {
	const { profile } = await cdp.send('Profiler.stop');
	await cdp.detach();
	const nodes = new Map(profile.nodes.map((node) => [node.id, { ...node, parent: null }]));
	for (const node of nodes.values()) for (const child of node.children ?? []) nodes.get(child).parent = node;
	let time = profile.startTime;
	const raw = profile.samples.map((id, i) => ({ node: nodes.get(id), time: (time += profile.timeDeltas[i]) / 1000 }));
	const first = raw.find((sample) => sample.node.callFrame.functionName === '__profileAnchor');
	const offset = first ? first.time - anchor : 0;
	// A sample stands for the time until the next one, but at most 1 ms: on a busy machine the
	// sampler itself waits, and a long gap says nothing about the function it happened to catch.
	return raw.map((sample, i) => ({ node: sample.node, time: sample.time - offset, ms: Math.min(1, (raw[i + 1]?.time ?? sample.time) - sample.time) }));
}

const where = (frame) => {
	const file = frame.url ? frame.url.split('/').pop() : '';
	return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}`;
};

/** The functions that used most of [from, to) (self time), each with the callers above it. */
export function topFunctions(samples, from, to, count = 5) {
	const self = new Map();
	for (const sample of samples) {
		if (sample.time < from || sample.time >= to) continue;
		const key = where(sample.node.callFrame);
		const entry = self.get(key) ?? { ms: 0, node: sample.node };
		entry.ms += sample.ms;
		self.set(key, entry);
	}
	return [...self.entries()]
		.sort((a, b) => b[1].ms - a[1].ms)
		.slice(0, count)
		.map(([key, { ms, node }]) => {
			const callers = [];
			for (let up = node.parent; up && callers.length < 4; up = up.parent) if (up.callFrame.functionName !== '(root)') callers.push(where(up.callFrame));
			return `${ms.toFixed(1)} ms ${key}${callers.length ? ` ← ${callers.join(' ← ')}` : ''}`;
		});
}

/**
 * An init script (it runs before any script of the page, outside the app's CSP): records every
 * long task of the visit in window.__longTasks, and defines the profiler's clock marker.
 */
export function observeLongTasks() {
	window.__longTasks = [];
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
	}).observe({ type: 'longtask', buffered: true });
	// A marker the profiler can see, tying its clock to performance.now() (see startProfile).
	window.__profileAnchor = function __profileAnchor() {
		const at = performance.now();
		while (performance.now() - at < 3);
		return at;
	};
}
