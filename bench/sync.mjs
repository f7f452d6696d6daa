// Sync benchmark, against pouchdb-server (in memory, a devDependency) started on a free port:
// in Chromium, two devices (two profile databases of the app's schema, each with the app's sync
// store and loop) and one server database. (1) A first sync of SESSIONS sessions of MESSAGES
// messages from one device to the other, against the same rows written straight into
// IndexedDB. (2) A new message's trip from one device to the other, which long-polls as an
// open tab does. (3) The first sync in a worker, as the app runs it, without and with a sync
// passphrase (encryption's cost, and the page's long tasks meanwhile), against its floors: the
// server's (the same documents posted and read straight), this device's IndexedDB work alone
// (through Dexie, and received rows with IndexedDB's own API), and both at once, as a sync
// shares the cores. Prints figures; asserts nothing. Run: node bench/sync.mjs
// (SESSIONS=n, 1,000 by default; MESSAGES=n per session, 20 by default; RUNS=n new messages, 20 by default;
// ROUNDS=n first syncs of each kind in the worker, 2 by default)
import { availableParallelism } from 'node:os';
import { startCouchServer } from '../tests/support/couch-server.mjs';
import { median, withHarnessPage } from './browser.mjs';
import { busyShare, cpuTicks, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';
import { startTaskTrace, stopTaskTrace } from './trace-tasks.mjs';

const SESSIONS = Number(process.env.SESSIONS ?? size(1000, 20));
const MESSAGES = Number(process.env.MESSAGES ?? size(20, 6));
const RUNS = Number(process.env.RUNS ?? size(20, 3));
const ROUNDS = Number(process.env.ROUNDS ?? size(2, 1));
/** The goal for what encryption adds to a first sync. */
const ENCRYPTION_GOAL = 0.15;
/** The goal for a new message to reach the other device. */
const LATENCY_GOAL_MS = 1000;
/** The goals for the app's first sync against the server's floor: sending within 1.5× posting the same documents with `_bulk_docs`, receiving within 2× reading them from `_changes`. */
const PUSH_GOAL = 1.5;
const PULL_GOAL = 2;
/** A long task, as the Long Tasks API counts one. */
const LONG_MS = 50;

console.log(machine());
const server = await startCouchServer();
console.log(`pouchdb-server (in memory) on ${server.url}, process ${server.pid}`);
try {
	const database = `${server.url}/bench-sync-${Date.now()}`;
	const created = await fetch(database, { method: 'PUT' });
	if (created.status !== 201) throw new Error(`The server did not create the database (${created.status}).`);
	const report = await withHarnessPage(async (page) => {
		const rounds = await page.evaluate(({ url, options }) => window.bench.syncRounds(url, options), { url: database, options: { sessions: SESSIONS, messages: MESSAGES, latencyRuns: RUNS } });
		// The first sync in a worker, without and with a passphrase in turns (ABBA…) so neither gains from going second,
		// the page's main thread traced meanwhile: a task's wall time, and its CPU time (what the page itself did).
		const worker = { plain: [], sealed: [] };
		for (let round = 0; round < ROUNDS; round++) {
			for (const kind of round % 2 ? ['sealed', 'plain'] : ['plain', 'sealed']) {
				const trace = await startTaskTrace(page);
				const ticks = cpuTicks();
				const run = await page.evaluate(({ server, options }) => window.bench.firstSyncInWorker(server, options), {
					server: server.url,
					options: { sessions: SESSIONS, messages: MESSAGES, passphrase: kind === 'sealed' ? 'a bench passphrase' : null }
				});
				const busy = busyShare(ticks, cpuTicks());
				const tasks = await stopTaskTrace(trace);
				worker[kind].push({ ...run.result, busy, longTasks: run.longTasks, cpuLong: tasks.filter((task) => task.cpu > LONG_MS).length, mostCpu: Math.max(0, ...tasks.map((task) => task.cpu)) });
			}
		}
		return { ...rounds, worker };
	});
	const perRow = (time) => `${((time / report.rows) * 1000).toFixed(0)} µs a row`;
	console.log(`\nA first sync of ${SESSIONS.toLocaleString('en')} sessions × ${MESSAGES} messages (${report.rows.toLocaleString('en')} rows) in Chromium, through one local server database`);
	console.log(`  The floor, the same rows written straight into a fresh IndexedDB database: ${ms(report.floorMs)} (${perRow(report.floorMs)})`);
	console.log(`  The first device finds and sends them: ${ms(report.sendMs)} in ${report.passes.send} passes (${perRow(report.sendMs)})`);
	console.log(`  The second device receives and stores them: ${ms(report.receiveMs)} in ${report.passes.receive} passes (${perRow(report.receiveMs)})`);
	const total = report.sendMs + report.receiveMs;
	console.log(`  From one device to the other: ${ms(total)}, ${(total / report.floorMs).toFixed(1)}× the floor`);
	const latency = median(report.latencyMs);
	console.log(`\nA new message, written on one device until stored on the other (long-polling), over ${RUNS} messages: median ${ms(latency)}, slowest ${ms(Math.max(...report.latencyMs))} (goal < ${ms(LATENCY_GOAL_MS)})`);
	const { plain, sealed } = report.worker;
	const sum = (runs, key) => runs.reduce((total, run) => total + run[key], 0);
	const most = Math.max(...[...plain, ...sealed].map((run) => run.mostCpu));
	const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
	const both = (run) => run.sendMs + run.receiveMs;
	const [plainMs, sealedMs] = [mean(plain.map(both)), mean(sealed.map(both))];
	const cost = sealedMs / plainMs - 1;
	console.log(`\nThe same first sync in a worker, as the app runs sync, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} of each in turn (mean):`);
	const passes = (runs) => runs.map((run) => `${run.passes.send} + ${run.passes.receive}`).join(', ');
	console.log(`  Without encryption: ${ms(plainMs)} (sending ${ms(mean(plain.map((run) => run.sendMs)))}, receiving ${ms(mean(plain.map((run) => run.receiveMs)))}; passes ${passes(plain)})`);
	console.log(`  With a sync passphrase (every body sealed with AES-GCM; the key made on one device and derived on the other, included): ${ms(sealedMs)} (sending ${ms(mean(sealed.map((run) => run.sendMs)))}, receiving ${ms(mean(sealed.map((run) => run.receiveMs)))}; passes ${passes(sealed)})`);
	console.log(`  Encryption costs ${(cost * 100).toFixed(1)}% more time (goal ≤ ${ENCRYPTION_GOAL * 100}%)`);
	// The page, the browser's IndexedDB and the server share the machine's cores: a sync that keeps them all busy is bound by them.
	const busy = [...plain, ...sealed].map((run) => run.busy).filter((share) => share !== null);
	if (busy.length) console.log(`  The machine's ${availableParallelism()} cores were busy ${(mean(busy) * 100).toFixed(0)}% of the time meanwhile (the page, its worker, the browser's IndexedDB and the server together; mean of the runs)`);
	const floorLine = (label, runs) => {
		const [post, read] = [mean(runs.map((run) => run.floor.postMs)), mean(runs.map((run) => run.floor.readMs))];
		const [send, receive] = [mean(runs.map((run) => run.sendMs)), mean(runs.map((run) => run.receiveMs))];
		console.log(
			`  ${label}: the ${runs[0].floor.documents.toLocaleString('en')} documents posted with _bulk_docs straight to the server ${ms(post)}, read from _changes ${ms(read)}; the app sends in ${(send / post).toFixed(1)}× that (goal ≤ ${PUSH_GOAL}×), receives in ${(receive / read).toFixed(1)}× (goal ≤ ${PULL_GOAL}×)`
		);
		// The device's floor: IndexedDB's own part of the same sync (sending also waits for the server, so its floor is the larger of the two).
		const [deviceSend, deviceReceive] = [mean(runs.map((run) => run.device.sendMs)), mean(runs.map((run) => run.device.receiveMs))];
		console.log(
			`    and this device's IndexedDB floor: the sent rows read and their sync records written straight ${ms(deviceSend)}, the received rows and sync records written straight ${ms(deviceReceive)}; the app sends in ${(send / Math.max(post, deviceSend)).toFixed(1)}× the larger floor, receives in ${(receive / Math.max(read, deviceReceive)).toFixed(1)}×`
		);
		// IndexedDB's own API, no library: what no receiving code goes below here, against the receiving goal.
		const [bareRows, bareRecords] = [mean(runs.map((run) => run.device.bare.rowsMs)), mean(runs.map((run) => run.device.bare.withRecordsMs))];
		console.log(
			`    and IndexedDB's own API with no library between: the received rows alone ${ms(bareRows)} (${(bareRows / read).toFixed(1)}× the _changes read), with their sync records ${ms(bareRecords)} (${(bareRecords / read).toFixed(1)}×); the receiving goal is ${ms(read * PULL_GOAL)}`
		);
		// Both floors at once: the server, the browser and IndexedDB on the same cores, as in a sync (what sending and receiving cannot go below here).
		const [togetherSend, togetherReceive] = [mean(runs.map((run) => run.floor.together.sendMs)), mean(runs.map((run) => run.floor.together.receiveMs))];
		console.log(
			`    and both at once, sharing the cores as a sync does: posting while this device does its sending floor ${ms(togetherSend)} (${(togetherSend / post).toFixed(1)}× the post alone; the sending goal is ${ms(post * PUSH_GOAL)}), reading while it does its receiving floor ${ms(togetherReceive)} (${(togetherReceive / read).toFixed(1)}× the read alone; the receiving goal is ${ms(read * PULL_GOAL)}); the app sends in ${(send / togetherSend).toFixed(1)}× the first, receives in ${(receive / togetherReceive).toFixed(1)}× the second`
		);
		return { push: send / post, pull: receive / read, togetherPush: togetherSend / post, togetherPull: togetherReceive / read, appTogetherPush: send / togetherSend, appTogetherPull: receive / togetherReceive, bareRecords: bareRecords / read, devicePush: send / Math.max(post, deviceSend), devicePull: receive / Math.max(read, deviceReceive) };
	};
	const phaseLine = (label, runs, side) => {
		const keys = [...new Set(runs.flatMap((run) => Object.keys(run.phases[side])))];
		const spent = keys.map((key) => [key, mean(runs.map((run) => run.phases[side][key] ?? 0))]).filter(([, time]) => time >= 1).sort((a, b) => b[1] - a[1]);
		console.log(`  ${label}: ${spent.map(([key, time]) => `${key} ${ms(time)}`).join(', ')}`);
	};
	console.log(`\nWhere a first sync in the worker spends its time (mean; the store's calls are IndexedDB and the work around it, the client's are the server's answers, encryption included):`);
	phaseLine('Sending, without encryption', plain, 'send');
	phaseLine('Receiving, without encryption', plain, 'receive');
	phaseLine('Sending, with a sync passphrase', sealed, 'send');
	phaseLine('Receiving, with a sync passphrase', sealed, 'receive');
	console.log(`\nThe server's floor, timed in the worker after each sync with the documents the app sent:`);
	const floors = { plain: floorLine('Without encryption', plain), sealed: floorLine('With a sync passphrase', sealed) };
	const crypto = sealed.map((run) => run.crypto);
	console.log(
		`  Of which the crypto alone, timed again after each sync: opening the ${crypto[0].documents.toLocaleString('en')} documents ${ms(mean(crypto.map((c) => c.openMs)))}, sealing them ${ms(mean(crypto.map((c) => c.sealMs)))}, deriving the key ${ms(mean(crypto.map((c) => c.deriveMs)))} (twice in a first sync: made on one device, derived on the other)`
	);
	console.log(
		`  Long tasks on the page meanwhile (over ${LONG_MS} ms): ${sum(plain, 'longTasks')} without encryption, ${sum(sealed, 'longTasks')} with; over ${LONG_MS} ms of CPU time: ${sum(plain, 'cpuLong')} without, ${sum(sealed, 'cpuLong')} with (most in one task: ${ms(most)}) (goal: none)`
	);
	headline(
		`sending ${floors.plain.push.toFixed(1)}× the server's _bulk_docs floor (${floors.sealed.push.toFixed(1)}× encrypted; goal ≤ ${PUSH_GOAL}×), receiving ${floors.plain.pull.toFixed(1)}× its _changes read (${floors.sealed.pull.toFixed(1)}× encrypted; goal ≤ ${PULL_GOAL}×); against the larger of that and this device's own IndexedDB floor, sending ${floors.plain.devicePush.toFixed(1)}×, receiving ${floors.plain.devicePull.toFixed(1)}×; IndexedDB alone, with no library, stores the received rows with their sync records in ${floors.plain.bareRecords.toFixed(1)}× the _changes read; the two floors at once take ${floors.plain.togetherPush.toFixed(1)}× the post alone and ${floors.plain.togetherPull.toFixed(1)}× the read alone, and the app sends in ${floors.plain.appTogetherPush.toFixed(1)}× and receives in ${floors.plain.appTogetherPull.toFixed(1)}× them; a first sync of ${report.rows.toLocaleString('en')} rows takes ${ms(total)} from one device to the other (${(total / report.floorMs).toFixed(1)}× writing them straight into IndexedDB); a new message reaches the other device in ${ms(latency)} (median; goal < ${ms(LATENCY_GOAL_MS)}); encryption adds ${(cost * 100).toFixed(1)}% to a first sync in the worker (goal ≤ ${ENCRYPTION_GOAL * 100}%), with ${sum(sealed, 'cpuLong')} tasks on the page over ${LONG_MS} ms of CPU time (goal 0)`
	);
} finally {
	await server.close();
}
