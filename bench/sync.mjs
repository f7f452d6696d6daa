// Sync benchmark, against pouchdb-server (in memory, a devDependency) started on a free port:
// in Chromium, two devices (two profile databases of the app's schema, each with the app's sync
// store and loop) and one server database. (1) A first sync of SESSIONS sessions of MESSAGES
// messages from one device to the other, against the same rows written straight into
// IndexedDB. (2) A new message's trip from one device to the other, which long-polls as an
// open tab does. Prints figures; asserts nothing. Run: node bench/sync.mjs
// (SESSIONS=n, 1,000 by default; MESSAGES=n per session, 20 by default; RUNS=n new messages, 20 by default)
import { startCouchServer } from '../tests/support/couch-server.mjs';
import { median, withHarnessPage } from './browser.mjs';
import { machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const SESSIONS = Number(process.env.SESSIONS ?? size(1000, 20));
const MESSAGES = Number(process.env.MESSAGES ?? size(20, 6));
const RUNS = Number(process.env.RUNS ?? size(20, 3));
/** The goal for a new message to reach the other device. */
const LATENCY_GOAL_MS = 1000;

console.log(machine());
const server = await startCouchServer();
console.log(`pouchdb-server (in memory) on ${server.url}, process ${server.pid}`);
try {
	const database = `${server.url}/bench-sync-${Date.now()}`;
	const created = await fetch(database, { method: 'PUT' });
	if (created.status !== 201) throw new Error(`The server did not create the database (${created.status}).`);
	const report = await withHarnessPage((page) =>
		page.evaluate(({ url, options }) => window.bench.syncRounds(url, options), { url: database, options: { sessions: SESSIONS, messages: MESSAGES, latencyRuns: RUNS } })
	);
	const perRow = (time) => `${((time / report.rows) * 1000).toFixed(0)} µs a row`;
	console.log(`\nA first sync of ${SESSIONS.toLocaleString('en')} sessions × ${MESSAGES} messages (${report.rows.toLocaleString('en')} rows) in Chromium, through one local server database`);
	console.log(`  The floor, the same rows written straight into a fresh IndexedDB database: ${ms(report.floorMs)} (${perRow(report.floorMs)})`);
	console.log(`  The first device finds and sends them: ${ms(report.sendMs)} in ${report.passes.send} passes (${perRow(report.sendMs)})`);
	console.log(`  The second device receives and stores them: ${ms(report.receiveMs)} in ${report.passes.receive} passes (${perRow(report.receiveMs)})`);
	const total = report.sendMs + report.receiveMs;
	console.log(`  From one device to the other: ${ms(total)}, ${(total / report.floorMs).toFixed(1)}× the floor`);
	const latency = median(report.latencyMs);
	console.log(`\nA new message, written on one device until stored on the other (long-polling), over ${RUNS} messages: median ${ms(latency)}, slowest ${ms(Math.max(...report.latencyMs))} (goal < ${ms(LATENCY_GOAL_MS)})`);
	headline(`a first sync of ${report.rows.toLocaleString('en')} rows takes ${ms(total)} from one device to the other (${(total / report.floorMs).toFixed(1)}× writing them straight into IndexedDB); a new message reaches the other device in ${ms(latency)} (median; goal < ${ms(LATENCY_GOAL_MS)})`);
} finally {
	await server.close();
}
