// A real full disk for browser tests: Chromium runs with its profile on a small tmpfs of its own,
// mounted in a private mount namespace (`unshare -Urm`, no root needed where user namespaces are
// allowed), and a filler process inside that namespace fills the disk or frees it on request.
// Where mounting is not allowed, `canMountSmallDisk` says so and the test is skipped.
import { chromium, type BrowserContext } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planChromium, probeMachine } from '../support/chromium.mjs';

/** Whether this machine lets an unprivileged process mount a tmpfs in its own namespace. */
export function canMountSmallDisk(): boolean {
	const dir = mkdtempSync(join(tmpdir(), 'palimpsest-probe-'));
	try {
		const probe = spawnSync('unshare', ['-Urm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$1"', 'probe', dir], { stdio: 'ignore' });
		return probe.status === 0;
	} catch {
		return false;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// Runs in the new namespace: mounts the disk over the profile directory, starts the filler, then
// becomes Chromium. The filler ends with Chromium (it watches Chromium's pid, which is its own $$).
const WRAPPER = `#!/bin/sh
exec unshare -Urm sh -c '
	mount -t tmpfs -o size="$DISK_SIZE" tmpfs "$DISK_DIR" || exit 97
	browser=$$
	(
		while kill -0 "$browser" 2>/dev/null; do
			if [ -e "$DISK_CONTROL/fill" ]; then
				rm -f "$DISK_CONTROL/fill" "$DISK_CONTROL/freed"
				cat /dev/zero > "$DISK_DIR/filler" 2>/dev/null
				touch "$DISK_CONTROL/filled"
			fi
			if [ -e "$DISK_CONTROL/free" ]; then
				rm -f "$DISK_CONTROL/free" "$DISK_CONTROL/filled" "$DISK_DIR/filler"
				touch "$DISK_CONTROL/freed"
			fi
			sleep 0.05
		done
	) &
	exec "$DISK_BROWSER" "$@"
' browser "$@"
`;

export interface SmallDisk {
	context: BrowserContext;
	/** Fills the disk to the last byte; resolves once it is full. */
	fill(): Promise<void>;
	/** Deletes the filler; resolves once the space is back. */
	free(): Promise<void>;
	close(): Promise<void>;
}

async function until(path: string, timeoutMs = 20_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	while (!existsSync(path)) {
		if (Date.now() > end) throw new Error(`Timed out waiting for ${path}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

export async function launchOnSmallDisk(options: { sizeMb: number; baseURL: string; args?: string[]; serviceWorkers?: 'allow' | 'block' }): Promise<SmallDisk> {
	const plan = planChromium(probeMachine());
	if (plan.action !== 'use') throw new Error('Chromium was not found.');
	const root = mkdtempSync(join(tmpdir(), 'palimpsest-disk-'));
	const profile = join(root, 'profile');
	const control = join(root, 'control');
	mkdirSync(profile);
	mkdirSync(control);
	const wrapper = join(root, 'chromium-on-small-disk');
	writeFileSync(wrapper, WRAPPER);
	chmodSync(wrapper, 0o755);
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: wrapper,
		baseURL: options.baseURL,
		serviceWorkers: options.serviceWorkers ?? 'allow',
		args: [...(options.args ?? []), `--disk-cache-dir=${join(root, 'cache')}`],
		env: { ...process.env, DISK_SIZE: `${options.sizeMb}m`, DISK_DIR: profile, DISK_CONTROL: control, DISK_BROWSER: plan.path }
	});
	return {
		context,
		async fill() {
			writeFileSync(join(control, 'fill'), '');
			await until(join(control, 'filled'));
		},
		async free() {
			writeFileSync(join(control, 'free'), '');
			await until(join(control, 'freed'));
		},
		async close() {
			await context.close();
			rmSync(root, { recursive: true, force: true });
		}
	};
}
