// Finds the likely intended name for a typo, so a refused hook name comes with a fix.

/** The candidate within a few edits of `name`, or undefined when nothing is close. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
	const wanted = name.toLowerCase();
	let best: string | undefined;
	let bestDistance = Infinity;
	for (const candidate of candidates) {
		const distance = editDistance(wanted, candidate);
		if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
	}
	return isCloseEnough(wanted, bestDistance) ? best : undefined;
}

/** Beyond a third of the word (and two edits), a "suggestion" is more confusing than none. */
export function isCloseEnough(name: string, distance: number): boolean {
	return distance <= Math.max(2, Math.ceil(name.length / 3));
}

export function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
		}
		previous = current;
	}
	return previous[b.length];
}
