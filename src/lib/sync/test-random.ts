// For tests: a seeded source of random bytes (mulberry32), so a failing case replays exactly.
import type { RandomBytes } from './position';

export function seededRandom(seed: number): RandomBytes {
	let state = seed >>> 0;
	return (count) => {
		const bytes = new Uint8Array(count);
		for (let i = 0; i < count; i++) {
			state = (state + 0x6d2b79f5) >>> 0;
			let t = state;
			t = Math.imul(t ^ (t >>> 15), t | 1);
			t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
			bytes[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
		}
		return bytes;
	};
}
