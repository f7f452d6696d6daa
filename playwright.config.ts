import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

// Browser tests drive a real Chromium: CHROME_PATH, else Debian's /usr/bin/chromium.
const chromium = process.env.CHROME_PATH || '/usr/bin/chromium';
if (!existsSync(chromium)) {
	throw new Error(
		`Chromium was not found at ${chromium}. Install it (Debian/Ubuntu: "apt-get install -y chromium") ` +
			'or set CHROME_PATH to a Chromium or Chrome executable.'
	);
}

const PORT = Number(process.env.E2E_PORT ?? 4310);

export default defineConfig({
	testDir: 'tests/e2e',
	timeout: 60_000,
	expect: { timeout: 10_000 },
	fullyParallel: false,
	workers: 1,
	retries: 0,
	reporter: [['list']],
	use: {
		baseURL: `http://127.0.0.1:${PORT}`,
		browserName: 'chromium',
		launchOptions: {
			executablePath: chromium,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync'
			]
		},
		trace: 'off'
	},
	webServer: {
		command: `node src/server/serve.mjs build`,
		env: { PORT: String(PORT) },
		url: `http://127.0.0.1:${PORT}/`,
		reuseExistingServer: false,
		timeout: 30_000
	}
});
