// Run by `npm test` before any test: makes sure the browser tests have a Chromium (see
// chromium.mjs), installing Debian's package when it may, or stopping with the command to run.
import { spawnSync } from 'node:child_process';
import { planChromium, probeMachine } from './chromium.mjs';

const plan = planChromium(probeMachine());
if (plan.action === 'stop') {
	console.error(plan.message);
	process.exit(1);
}
if (plan.action === 'install') {
	console.log(plan.message);
	for (const command of plan.commands) {
		console.log(`$ ${command.join(' ')}`);
		const run = spawnSync(command[0], command.slice(1), {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
		});
		if (run.status !== 0) {
			console.error(`"${command.join(' ')}" failed. Install Chromium yourself, or set CHROME_PATH to a Chromium or Chrome executable.`);
			process.exit(1);
		}
	}
	const after = planChromium(probeMachine());
	if (after.action !== 'use') {
		console.error('The chromium package was installed, but no Chromium executable was found. Set CHROME_PATH to it.');
		process.exit(1);
	}
	console.log(`Chromium installed: ${after.path}`);
}
