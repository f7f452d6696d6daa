// The fewest tokens a text can take in the encodings the app counts with (o200k_base and
// cl100k_base). Both cut a text into pieces before merging, and no token spans two pieces: a
// run of letters is a piece of its own, and digits go at most three to a piece. A caller can
// then pass over a text that cannot fit what is left of a budget without counting it. Pure.

/** A run of letters or digits: a character past ASCII counts as one, and an apostrophe joins a run's parts ("don't"), so no run is cut where a piece is not. */
const RUN = /[A-Za-z0-9\u0080-\uffff]+(?:['’][A-Za-z0-9\u0080-\uffff]+)*/g;
const ASCII_DIGITS = /^[0-9]+$/;

/** At most the tokens `text` takes, whichever of the two encodings counts it. */
export function leastTokens(text: string): number {
	let least = 0;
	RUN.lastIndex = 0;
	for (let run = RUN.exec(text); run; run = RUN.exec(text)) least += ASCII_DIGITS.test(run[0]) ? Math.ceil(run[0].length / 3) : 1;
	return least;
}
