// The broker reads plugins' messages in fair turns: one of each waiting plugin per round, a
// plugin over its bytes budget waits (and only it), too many waiting are dropped unread, and
// a plugin's flood never holds up another plugin's answer.
import { describe, expect, it } from 'vitest';
import { PluginChannel } from '../sandbox/plugin-channel';
import { readTrue } from '../sandbox/read-answers';
import { InboxScheduler, type InboxLimits, type SchedulerClock } from './inbox-scheduler';

/** A clock whose tasks run when the test says, in the order they were queued (as an event loop's). */
function fakeClock() {
	let now = 0;
	const tasks: Array<() => void> = [];
	const timers: Array<{ at: number; run: () => void }> = [];
	const clock: SchedulerClock = {
		now: () => now,
		soon: (run) => void tasks.push(run),
		later: (run, ms) => void timers.push({ at: now + ms, run })
	};
	return {
		clock,
		/** Work that takes `ms`. */
		spend: (ms: number) => (now += ms),
		/** Queues a task, as a message arriving does. */
		arrive: (run: () => void) => tasks.push(run),
		/** Runs queued tasks, then timers due by `until`, until nothing is left to run. */
		run(until = now) {
			for (;;) {
				const task = tasks.shift();
				if (task) {
					task();
					continue;
				}
				timers.sort((a, b) => a.at - b.at);
				if (!timers.length || timers[0].at > until) return;
				const timer = timers.shift()!;
				now = Math.max(now, timer.at);
				timer.run();
			}
		}
	};
}

const LIMITS: InboxLimits = { bytesPerSecond: 1_000, bytesBurst: 2_000, maxWaiting: 5, sliceMs: 4 };

describe('the inbox scheduler', () => {
	it('reads one message of each waiting plugin per round, whoever sent more', () => {
		const fake = fakeClock();
		const scheduler = new InboxScheduler({ ...LIMITS, maxWaiting: 100 }, fake.clock);
		const read: string[] = [];
		const events = { dropped: () => {}, held: () => {} };
		const flood = scheduler.open(events);
		const calm = scheduler.open(events);
		for (let i = 0; i < 50; i++) fake.arrive(() => flood.push(() => (read.push(`flood ${i}`), fake.spend(3), 10)));
		fake.arrive(() => calm.push(() => (read.push('calm'), 10)));
		fake.run();
		// Both arrived before the first slice: the calm plugin's message is read in the first round.
		expect(read.slice(0, 3)).toEqual(['flood 0', 'calm', 'flood 1']);
		expect(read).toHaveLength(51);
	});

	it('gives a message that arrives while another plugin floods its turn within one message of the flood', () => {
		const fake = fakeClock();
		const scheduler = new InboxScheduler({ ...LIMITS, bytesBurst: 1e9, maxWaiting: 300 }, fake.clock);
		const events = { dropped: () => {}, held: () => {} };
		const flood = scheduler.open(events);
		const calm = scheduler.open(events);
		let floodRead = 0;
		let calmReadAt = -1;
		// 250 messages of 5 ms each: 1.25 s of reading.
		for (let i = 0; i < 250; i++) fake.arrive(() => flood.push(() => (floodRead++, fake.spend(5), 1)));
		let arrivedAt = -1;
		// The calm plugin's answer comes once the flood's reading has begun.
		fake.arrive(() =>
			fake.arrive(() => {
				arrivedAt = fake.clock.now();
				calm.push(() => ((calmReadAt = fake.clock.now()), 1));
			})
		);
		fake.run();
		expect(floodRead).toBe(250);
		expect(arrivedAt).toBeGreaterThanOrEqual(0);
		// At most one slice and one message of the flood stand before it.
		expect(calmReadAt - arrivedAt).toBeLessThanOrEqual(LIMITS.sliceMs + 5);
	});

	it('makes only the plugin over its bytes budget wait, counts what waited, and reads it again as the budget refills', () => {
		const fake = fakeClock();
		const scheduler = new InboxScheduler(LIMITS, fake.clock);
		const held: number[] = [];
		const read: string[] = [];
		const big = scheduler.open({ dropped: () => {}, held: (count) => held.push(count) });
		const small = scheduler.open({ dropped: () => {}, held: () => expect.unreachable('the small plugin never waits') });
		// 1,500 bytes each: the burst of 2,000 takes two, then one a second and a half.
		for (let i = 0; i < 4; i++) big.push(() => (read.push(`big ${i}`), 1_500));
		for (let i = 0; i < 3; i++) small.push(() => (read.push(`small ${i}`), 10));
		fake.run();
		expect(read).toEqual(['big 0', 'small 0', 'big 1', 'small 1', 'small 2']);
		expect(held).toEqual([2]);
		expect(big.waiting).toBe(2);
		fake.run(1_000);
		expect(read).toHaveLength(5);
		fake.run(2_000);
		expect(read.slice(5)).toEqual(['big 2']);
		fake.run(3_000);
		expect(read.slice(5)).toEqual(['big 2', 'big 3']);
		// A message that arrived while it waited is counted when it waits in turn, once.
		expect(held.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3);
	});

	it('drops messages past the most that may wait, unread, and counts them; closing drops the rest unread', () => {
		const fake = fakeClock();
		const scheduler = new InboxScheduler(LIMITS, fake.clock);
		let dropped = 0;
		let read = 0;
		const inbox = scheduler.open({ dropped: () => dropped++, held: () => {} });
		const pushed = Array.from({ length: 8 }, () => inbox.push(() => (read++, 1)));
		expect(pushed).toEqual([true, true, true, true, true, false, false, false]);
		expect(dropped).toBe(3);
		inbox.close();
		expect(inbox.push(() => (read++, 1))).toBe(false);
		fake.run();
		expect(read).toBe(0);
	});
});

describe("two plugins' channels, one flooding", () => {
	/** A port whose messages cost `ms` of the clock to read, as a browser copies a message out when its data is first read. */
	function slowPort(fake: ReturnType<typeof fakeClock>, name: string, order: string[]) {
		const port = {
			onmessage: null as ((event: MessageEvent) => void) | null,
			onmessageerror: null,
			posted: [] as Array<{ id: number }>,
			postMessage: (message: { id: number }) => void port.posted.push(message),
			close: () => {}
		};
		const arrive = (data: unknown, ms: number) =>
			fake.arrive(() =>
				port.onmessage!({
					ports: [],
					get data() {
						order.push(name);
						fake.spend(ms);
						return data;
					}
				} as unknown as MessageEvent)
			);
		return { port: port as unknown as MessagePort, posted: port.posted, arrive };
	}

	it("reads the calm plugin's answer before almost all of a flood that arrived first", async () => {
		const fake = fakeClock();
		const inboxes = new InboxScheduler({ bytesPerSecond: 1e12, bytesBurst: 1e12, maxWaiting: 400, sliceMs: 4 }, fake.clock);
		const order: string[] = [];
		const flood = slowPort(fake, 'flood', order);
		const calm = slowPort(fake, 'calm', order);
		const events = { onRefused: () => {}, onViolation: () => {} };
		new PluginChannel(flood.port, events, () => fake.clock.now(), inboxes.open({ dropped: () => {}, held: () => {} }));
		const calmChannel = new PluginChannel(calm.port, events, () => fake.clock.now(), inboxes.open({ dropped: () => {}, held: () => {} }));
		// 250 answers to nothing, each 10 ms to read (near-megabyte values of many parts), arrive before the calm plugin's answer.
		for (let i = 0; i < 250; i++) flood.arrive({ t: 'answer', id: 1_000 + i, ok: true, value: i }, 10);
		const answered = calmChannel.ask({ t: 'ping' }, readTrue);
		calm.arrive({ t: 'answer', id: calm.posted[0].id, ok: true, value: true }, 0);
		fake.run();
		await expect(answered).resolves.toBe(true);
		expect(order).toHaveLength(251);
		// Read as each arrived, all 250 stood before it: 2.5 s on a real page.
		expect(order.indexOf('calm')).toBeLessThanOrEqual(2);
	});
});
