import { defineConfig } from '@playwright/test';
import { planChromium, probeMachine } from './tests/support/chromium.mjs';

// Browser tests drive a real Chromium: CHROME_PATH, else Debian's or Ubuntu's package. `npm
// test` installs it first where it may (tests/support/ensure-chromium.mjs); a direct
// `npx playwright test` only says what to run.
const plan = planChromium(probeMachine());
if (plan.action !== 'use') {
	throw new Error(plan.action === 'stop' ? plan.message : 'Chromium was not found. Run npm test, which installs it, or set CHROME_PATH.');
}
const chromium = plan.path;

const PORT = Number(process.env.E2E_PORT ?? 4310);

export default defineConfig({
	testDir: 'tests/e2e',
	timeout: 60_000,
	expect: { timeout: 10_000 },
	fullyParallel: false,
	// Spec files run four at a time: the tests mostly wait (for the app's workers, servers and
	// timers), so four keep two cores busier than two do (294 tests in 15 minutes against about
	// 30). Tests tagged @timing measure the page's own time and run alone, in a pass of their own
	// (see package.json's test:e2e).
	workers: Number(process.env.E2E_WORKERS ?? 4),
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
		trace: 'off',
		// The service worker precaches the whole app in every new browser context, a third of a
		// test's CPU time; the specs about it (offline use, its cache) let it run.
		serviceWorkers: 'block'
	},
	webServer: {
		command: `node src/server/serve.mjs build`,
		env: { PORT: String(PORT) },
		url: `http://127.0.0.1:${PORT}/`,
		reuseExistingServer: false,
		timeout: 30_000
	}
});
