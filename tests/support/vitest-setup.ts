// Unit-test set-up: vi.waitFor waits up to 10 s unless a test says otherwise. Its own default
// (1 s) is a state a quiet machine reaches in milliseconds, but a busy 2-core one can take
// longer; a test that waits for a state should fail when the state never comes, not when the
// machine is slow.
import { vi } from 'vitest';

const waitFor = vi.waitFor.bind(vi);
const WAIT_MS = 10_000;

vi.waitFor = ((callback, options) => waitFor(callback, typeof options === 'number' ? options : { timeout: WAIT_MS, ...options })) as typeof vi.waitFor;
