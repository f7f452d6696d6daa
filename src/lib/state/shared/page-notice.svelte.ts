// What the last action of a page said: a notice when it went through, or why it failed.
import { describeError } from './turn-helpers';

export class PageNotice {
	notice = $state('');
	error = $state('');

	clear(): void {
		this.notice = this.error = '';
	}

	/** Runs an action of the page: the words it resolves to become the notice, a failure the error. */
	async act(work: () => Promise<string | null>): Promise<void> {
		this.clear();
		try {
			this.notice = (await work()) ?? '';
		} catch (e) {
			this.error = describeError(e);
		}
	}
}
