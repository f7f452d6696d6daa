// What `npm test` does when the browser tests have no Chromium, decided for machines this one
// cannot be: fresh Debian as root, a laptop user without sudo, macOS, a CHROME_PATH typo.
import { describe, expect, it, vi } from 'vitest';
import { planChromium, type Machine } from './chromium.mjs';

function machine(extra: Partial<Machine> & { installed?: string[] } = {}): Machine {
	const installed = new Set(extra.installed ?? []);
	return {
		chromePath: undefined,
		isExecutable: (path) => installed.has(path),
		platform: 'linux',
		isRoot: false,
		hasAptGet: true,
		canSudoWithoutPassword: () => false,
		...extra
	};
}

describe('planChromium', () => {
	it("uses Debian's or Ubuntu's Chromium when it is there", () => {
		expect(planChromium(machine({ installed: ['/usr/bin/chromium'] }))).toEqual({ action: 'use', path: '/usr/bin/chromium' });
		expect(planChromium(machine({ installed: ['/usr/bin/chromium-browser'] }))).toEqual({ action: 'use', path: '/usr/bin/chromium-browser' });
	});

	it('respects CHROME_PATH, and never installs over a CHROME_PATH that points nowhere', () => {
		const sudo = vi.fn(() => true);
		expect(planChromium(machine({ chromePath: '/opt/chrome/chrome', installed: ['/opt/chrome/chrome', '/usr/bin/chromium'] }))).toEqual({
			action: 'use',
			path: '/opt/chrome/chrome'
		});
		const typo = planChromium(machine({ chromePath: '/opt/chrom/chrome', isRoot: true, canSudoWithoutPassword: sudo, installed: ['/usr/bin/chromium'] }));
		expect(typo).toEqual({ action: 'stop', message: expect.stringContaining('CHROME_PATH is /opt/chrom/chrome, but that is not an executable') });
		expect(sudo).not.toHaveBeenCalled();
	});

	it("installs Debian's chromium on a fresh machine when running as root", () => {
		expect(planChromium(machine({ isRoot: true }))).toMatchObject({
			action: 'install',
			commands: [
				['apt-get', 'update', '-qq'],
				['apt-get', 'install', '-y', '-qq', 'chromium']
			]
		});
	});

	it('installs through sudo when sudo needs no password', () => {
		expect(planChromium(machine({ canSudoWithoutPassword: () => true }))).toMatchObject({
			action: 'install',
			commands: [
				['sudo', '-n', 'apt-get', 'update', '-qq'],
				['sudo', '-n', 'apt-get', 'install', '-y', '-qq', 'chromium']
			]
		});
	});

	it('stops at once with the one command to run when installing would need a password', () => {
		const plan = planChromium(machine());
		expect(plan.action).toBe('stop');
		expect(plan.action === 'stop' && plan.message).toContain('\n  sudo apt-get install -y chromium\n');
	});

	it('asks for CHROME_PATH where there is no apt-get, with an example for macOS', () => {
		expect(planChromium(machine({ platform: 'darwin', hasAptGet: false }))).toEqual({
			action: 'stop',
			message: expect.stringContaining('CHROME_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" npm test')
		});
		expect(planChromium(machine({ hasAptGet: false, isRoot: true }))).toMatchObject({ action: 'stop', message: expect.stringContaining('CHROME_PATH=/path/to/chromium npm test') });
	});
});
