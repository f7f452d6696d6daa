import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { savePrompt } from '../../db/prompt-verbs';
import { saveAssistant } from '../../db/assistant-verbs';
import { writeSettings } from '../../db/settings-verbs';
import { PromptsState } from '../prompts/prompts.svelte';
import { earlyPrompts, readPromptsAhead } from '../prompts/early-prompts';
import { AssistantsState } from '../assistants/assistants.svelte';
import { readAssistantsAhead } from '../assistants/early-assistants';
import { ConfirmState } from './confirm.svelte';

let db: PalimpsestDb;
beforeEach(async () => {
	db = openProfileDb(`early-${crypto.randomUUID()}`);
	await db.open();
});
afterEach(() => db.close());

const promptsPage = () => new PromptsState(db, () => [], new ConfirmState());
const names = (page: PromptsState) => page.prompts.map((prompt) => prompt.name);

describe('the rows a page shows first, read ahead of it', () => {
	it('are on the Prompts page from the moment it is made, in order, when they were read ahead', async () => {
		await savePrompt(db, { name: 'translate', text: 'Translate {{text}}.' });
		await savePrompt(db, { name: 'brief', text: 'Be brief.' });
		expect(promptsPage().loaded).toBe(false);

		await readPromptsAhead(db);
		const page = promptsPage();
		expect(page.loaded).toBe(true);
		expect(names(page)).toEqual(['brief', 'translate']);
	});

	it('are forgotten once a prompt is saved, so the page never shows one old', async () => {
		await savePrompt(db, { name: 'brief', text: 'Be brief.' });
		await readPromptsAhead(db);
		await savePrompt(db, { name: 'again', text: 'Once more.' });
		await vi.waitFor(() => expect(earlyPrompts.rows(db)).toBeUndefined());
		expect(promptsPage().loaded).toBe(false);

		// Read ahead again, they hold the new one.
		await readPromptsAhead(db);
		expect(names(promptsPage())).toEqual(['again', 'brief']);
	});

	it('are forgotten when a prompt is saved while they are being read', async () => {
		await savePrompt(db, { name: 'brief', text: 'Be brief.' });
		const reading = readPromptsAhead(db);
		await savePrompt(db, { name: 'again', text: 'Once more.' });
		await reading;
		await vi.waitFor(() => expect(earlyPrompts.rows(db)).toBeUndefined());
		const page = promptsPage();
		const stop = page.follow();
		await vi.waitFor(() => expect(names(page)).toEqual(['again', 'brief']));
		stop();
	});

	it('are kept through writes to other tables, and read once however often they are asked for', async () => {
		await savePrompt(db, { name: 'brief', text: 'Be brief.' });
		const read = vi.spyOn(db.prompts, 'toArray');
		await Promise.all([readPromptsAhead(db), readPromptsAhead(db)]);
		await writeSettings(db, { theme: 'dark' });
		await readPromptsAhead(db);
		expect(read).toHaveBeenCalledTimes(1);
		expect(names(promptsPage())).toEqual(['brief']);
	});

	it('are the profile’s own: another profile’s database reads its own', async () => {
		await savePrompt(db, { name: 'brief', text: 'Be brief.' });
		await readPromptsAhead(db);
		const other = openProfileDb(`early-${crypto.randomUUID()}`);
		await other.open();
		expect(new PromptsState(other, () => [], new ConfirmState()).loaded).toBe(false);
		other.close();
	});

	it('a page opened while they are being read shows them once read, before its own read', async () => {
		await savePrompt(db, { name: 'brief', text: 'Be brief.' });
		const reading = readPromptsAhead(db);
		const page = promptsPage();
		expect(page.loaded).toBe(false);
		const stop = page.follow();
		await reading;
		await vi.waitFor(() => expect(names(page)).toEqual(['brief']));
		stop();
	});

	it('are on the Assistants page from the moment it is made, and forgotten once one is saved', async () => {
		const fields = { name: 'Reviewer', provider: '', model: '', starters: [] };
		await saveAssistant(db, fields);
		await readAssistantsAhead(db);
		const page = new AssistantsState(db, new ConfirmState(), 'default');
		expect(page.loaded).toBe(true);
		expect(page.assistants.map((a) => a.name)).toEqual(['Reviewer']);

		await saveAssistant(db, { ...fields, name: 'Editor' });
		await vi.waitFor(() => expect(new AssistantsState(db, new ConfirmState(), 'default').loaded).toBe(false));
	});
});
