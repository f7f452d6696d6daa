// Transactional verbs on saved prompts. Names are unique among the prompts of a profile: a save
// that would take another prompt's name is refused in the same transaction that writes it.
import type { PalimpsestDb } from './database';
import { MAX_PROMPTS, type PromptRow } from './schema';

/** Every prompt, by name (for the Prompts page). */
export async function listPrompts(db: PalimpsestDb): Promise<PromptRow[]> {
	return sortByName(await db.prompts.toArray());
}

/** The names of the prompts, from the name index alone (no text is read): for the slash menu. */
export async function listPromptNames(db: PalimpsestDb): Promise<string[]> {
	return [...new Set((await db.prompts.orderBy('name').keys()) as string[])];
}

/**
 * The prompt that answers to `name`. Two devices may each have saved one of that name before
 * they synced: the earlier one answers (the same on every device), until one is renamed.
 */
export async function findPromptByName(db: PalimpsestDb, name: string): Promise<PromptRow | undefined> {
	return sortByName(await db.prompts.where('name').equals(name).toArray())[0];
}

/** Prompts by name; of one name, the earliest first (then by id: the same order everywhere). */
function sortByName(rows: PromptRow[]): PromptRow[] {
	return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
}

export class PromptNameTaken extends Error {
	constructor(name: string) {
		super(`A prompt named “${name}” exists already: choose another name, or edit that one.`);
		this.name = 'PromptNameTaken';
	}
}

/**
 * Stores a new prompt (no `id`) or changes one; refused when another prompt has the name, when
 * the profile holds MAX_PROMPTS already, or when the prompt was deleted meanwhile. Returns the row.
 */
export async function savePrompt(db: PalimpsestDb, prompt: { id?: string; name: string; text: string }, now = Date.now()): Promise<PromptRow> {
	return db.transaction('rw', db.prompts, async () => {
		const namesake = await db.prompts.where('name').equals(prompt.name).filter((row) => row.id !== prompt.id).first();
		if (namesake) throw new PromptNameTaken(prompt.name);
		if (prompt.id === undefined) {
			if ((await db.prompts.count()) >= MAX_PROMPTS) throw new Error(`A profile keeps at most ${MAX_PROMPTS.toLocaleString('en')} prompts: delete one first.`);
			const row: PromptRow = { id: crypto.randomUUID(), name: prompt.name, text: prompt.text, created_at: now, updated_at: now };
			await db.prompts.add(row);
			return row;
		}
		const old = await db.prompts.get(prompt.id);
		if (!old) throw new Error('This prompt no longer exists: it was deleted meanwhile.');
		const row: PromptRow = { ...old, name: prompt.name, text: prompt.text, updated_at: now };
		await db.prompts.put(row);
		return row;
	});
}

export async function deletePrompt(db: PalimpsestDb, id: string): Promise<void> {
	await db.prompts.delete(id);
}

/**
 * Adds imported prompts, each checked already: one whose id or name the profile has is skipped
 * (the profile's stays as it is), and so is any past MAX_PROMPTS.
 */
export async function writeImportedPrompts(db: PalimpsestDb, prompts: readonly PromptRow[]): Promise<{ added: number; skipped: number }> {
	return db.transaction('rw', db.prompts, async () => {
		const here = await db.prompts.toArray();
		const ids = new Set(here.map((row) => row.id));
		const names = new Set(here.map((row) => row.name));
		let room = MAX_PROMPTS - here.length;
		const added: PromptRow[] = [];
		for (const prompt of prompts) {
			if (ids.has(prompt.id) || names.has(prompt.name) || room <= 0) continue;
			ids.add(prompt.id);
			names.add(prompt.name);
			room -= 1;
			added.push(prompt);
		}
		await db.prompts.bulkAdd(added);
		return { added: added.length, skipped: prompts.length - added.length };
	});
}
