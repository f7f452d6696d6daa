// For tests: a valid message position that sorts as `n` does (n ≥ 0, to a thousandth), for rows
// a test writes straight to the database.
export function testPosition(n: number): string {
	return String(Math.round(n * 1000)).padStart(26, '0');
}
