// The Chromium the browser tests drive: CHROME_PATH, else Debian's or Ubuntu's package. When
// there is none, `planChromium` decides what `npm test` does about it: install Debian's
// `chromium` package where this machine lets it (root, or sudo without a password), or stop
// at once with the one command to run. The decision is pure; `probeMachine` reads the machine.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Where Debian (`chromium`) and Ubuntu (`chromium-browser`) put the browser. */
export const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const INSTALL_COMMAND = 'sudo apt-get install -y chromium';

/**
 * @typedef {object} Machine
 * @property {string | undefined} chromePath The CHROME_PATH environment variable.
 * @property {(path: string) => boolean} isExecutable
 * @property {NodeJS.Platform} platform
 * @property {boolean} isRoot
 * @property {boolean} hasAptGet
 * @property {() => boolean} canSudoWithoutPassword Asked only when it matters.
 */

/**
 * @typedef {{ action: 'use', path: string }
 *   | { action: 'install', commands: string[][], message: string }
 *   | { action: 'stop', message: string }} ChromiumPlan
 */

/** The executable to use, or null: CHROME_PATH when set (and only it), else a packaged one. */
export function findChromium(/** @type {Pick<Machine, 'chromePath' | 'isExecutable'>} */ machine) {
	if (machine.chromePath) return machine.isExecutable(machine.chromePath) ? machine.chromePath : null;
	return CHROMIUM_PATHS.find((path) => machine.isExecutable(path)) ?? null;
}

/** @param {Machine} machine @returns {ChromiumPlan} */
export function planChromium(machine) {
	const found = findChromium(machine);
	if (found) return { action: 'use', path: found };
	// The user chose a browser: installing another one behind their back would not help.
	if (machine.chromePath) {
		return {
			action: 'stop',
			message: `CHROME_PATH is ${machine.chromePath}, but that is not an executable. Point it at Chromium or Chrome, e.g.\n  CHROME_PATH=/usr/bin/chromium npm test`
		};
	}
	if (machine.platform !== 'linux' || !machine.hasAptGet) {
		const example = machine.platform === 'darwin' ? '"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"' : '/path/to/chromium';
		return {
			action: 'stop',
			message: `Chromium was not found. Run the tests with your Chromium or Chrome:\n  CHROME_PATH=${example} npm test`
		};
	}
	const sudo = machine.isRoot ? [] : machine.canSudoWithoutPassword() ? ['sudo', '-n'] : null;
	if (!sudo) {
		return {
			action: 'stop',
			message: `Chromium was not found, and installing it needs your password. Run:\n  ${INSTALL_COMMAND}\nthen npm test again (or set CHROME_PATH to a Chromium or Chrome executable).`
		};
	}
	return {
		action: 'install',
		message: "Chromium was not found: installing Debian's chromium package for the browser tests…",
		commands: [
			[...sudo, 'apt-get', 'update', '-qq'],
			[...sudo, 'apt-get', 'install', '-y', '-qq', 'chromium']
		]
	};
}

/** @param {string} path */
function isExecutable(path) {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** @returns {Machine} */
export function probeMachine(env = process.env) {
	return {
		chromePath: env.CHROME_PATH || undefined,
		isExecutable,
		platform: process.platform,
		isRoot: process.getuid?.() === 0,
		hasAptGet: ['/usr/bin/apt-get', '/bin/apt-get'].some(isExecutable),
		canSudoWithoutPassword: () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0
	};
}
