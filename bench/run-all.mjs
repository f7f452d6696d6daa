// Runs every benchmark in turn and prints each one's headline at the end. With --quick (as
// `npm test` runs it) each runs in quick mode (small sizes, one round), two at a time (their
// figures are not comparable anyway; each one's output is printed whole when it ends), and the
// run fails when any benchmark fails or does not end with its headline: a benchmark that breaks
// fails the tests. Builds the app first when it has not been built.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const BENCHMARKS = ['startup', 'counting', 'compaction', 'fidelity', 'long-tasks', 'open-session', 'transfer', 'delete-sessions', 'sidebar', 'search', 'plugin-dispatch', 'tools', 'sync', 'attach', 'local-model', 'prompts', 'assistants', 'chat-settings'];
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

if (!existsSync('build/index.html')) {
	console.log('Building the app first (npx vite build)');
	const build = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
	if (build.status !== 0) process.exit(build.status ?? 1);
}

/** At once in a full run; in quick mode, the whole output when the benchmark ends, as another runs beside it. */
const AT_ONCE = !quick;
const AT_A_TIME = quick ? 2 : 1;

/** Runs one benchmark, printing its output; resolves to its exit code and last line. */
function run(name) {
	const header = `\n=== ${name}${quick ? ' (quick)' : ''}\n`;
	if (AT_ONCE) process.stdout.write(header);
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [`bench/${name}.mjs`], {
			env: { ...process.env, ...(quick ? { BENCH_QUICK: '1' } : {}) },
			stdio: ['ignore', 'pipe', AT_ONCE ? 'inherit' : 'pipe']
		});
		let output = '';
		child.stdout.on('data', (chunk) => {
			output += chunk;
			if (AT_ONCE) process.stdout.write(chunk);
		});
		let errors = '';
		child.stderr?.on('data', (chunk) => (errors += chunk));
		child.on('close', (code) => {
			if (!AT_ONCE) process.stdout.write(header + output + (errors ? `--- its error output:\n${errors}` : ''));
			resolve({ code: code ?? 1, last: output.trimEnd().split('\n').at(-1) ?? '' });
		});
	});
}

const queue = [...(only.length ? only : BENCHMARKS)];
const results = new Map(queue.map((name) => [name, null]));
async function runQueue() {
	for (let name = queue.shift(); name; name = queue.shift()) {
		const started = Date.now();
		const { code, last } = await run(name);
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		const ok = code === 0 && last.startsWith('Headline');
		results.set(name, { name, ok, line: ok ? last : code === 0 ? `ended without its headline line (last line: ${last})` : `FAILED (exit code ${code})`, seconds });
	}
}
await Promise.all(Array.from({ length: AT_A_TIME }, runQueue));

console.log(`\n=== ${quick ? 'Quick run of every benchmark' : 'Every benchmark'}`);
for (const { name, ok, line, seconds } of results.values()) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds} s): ${line}`);
if ([...results.values()].some((result) => !result.ok)) process.exit(1);
