// After a session's first answer, a model names it in the background (see background-title.ts):
// asked at most once per session in this tab, the code that asks loaded then.
import type { Services } from '../app/services';

/** Asks for a session's title after its first answer; a second call for the same session does nothing. */
export function createTitleAsker(services: Services): (sessionId: string) => Promise<void> {
	const asked = new Set<string>();
	return async (sessionId) => {
		if (asked.has(sessionId)) return;
		asked.add(sessionId);
		try {
			const { titleAfterFirstAnswer } = await import('./background-title');
			await titleAfterFirstAnswer(services, sessionId);
		} catch (error) {
			// The title stays the first message's first line: nothing the user has to act on.
			console.warn('The session keeps its title: the model could not write one.', error);
		}
	};
}
