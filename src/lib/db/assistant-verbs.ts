// Transactional verbs on assistants. A profile keeps at most ASSISTANT_LIMITS.assistants of them;
// their names need not be unique (a duplicate is named as a copy).
import type { PalimpsestDb } from './database';
import { ASSISTANT_LIMITS, type AssistantRow } from './schema';

/** What the Assistants form sets: everything but the id and times. */
export type AssistantFields = Omit<AssistantRow, 'id' | 'created_at' | 'updated_at'>;

const FULL = `A profile keeps at most ${ASSISTANT_LIMITS.assistants.toLocaleString('en')} assistants: delete one first.`;
const GONE = 'This assistant no longer exists: it was deleted meanwhile.';

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every assistant, by name regardless of case (of one name, the earliest first; then by id: the same order on every device). */
export async function listAssistants(db: PalimpsestDb): Promise<AssistantRow[]> {
	const rows = await db.assistants.toArray();
	return rows.sort((a, b) => order(a.name.toLowerCase(), b.name.toLowerCase()) || order(a.name, b.name) || a.created_at - b.created_at || order(a.id, b.id));
}

export async function getAssistant(db: PalimpsestDb, id: string): Promise<AssistantRow | undefined> {
	return db.assistants.get(id);
}

/** Stores `fields` as a new assistant, or (with `id`) over that one; refused past the most a profile keeps or once deleted. */
export async function saveAssistant(db: PalimpsestDb, fields: AssistantFields, id?: string, now = Date.now()): Promise<AssistantRow> {
	const { chat_settings, ...rest } = fields;
	const settings = chat_settings && Object.keys(chat_settings).length ? { chat_settings } : {};
	return db.transaction('rw', db.assistants, async () => {
		if (id === undefined) {
			if ((await db.assistants.count()) >= ASSISTANT_LIMITS.assistants) throw new Error(FULL);
			const row: AssistantRow = { id: crypto.randomUUID(), ...rest, ...settings, created_at: now, updated_at: now };
			await db.assistants.add(row);
			return row;
		}
		const old = await db.assistants.get(id);
		if (!old) throw new Error(GONE);
		const row: AssistantRow = { id, ...rest, ...settings, created_at: old.created_at, updated_at: now };
		await db.assistants.put(row);
		return row;
	});
}

/** The name of a copy of an assistant named `name`, among `taken` names: "<name> (copy)", then "(copy 2)"… */
export function copyName(name: string, taken: ReadonlySet<string>): string {
	const base = name.replace(/ \(copy(?: \d+)?\)$/, '');
	for (let n = 1; ; n++) {
		const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
		const candidate = `${base.slice(0, ASSISTANT_LIMITS.nameChars - suffix.length)}${suffix}`;
		if (!taken.has(candidate)) return candidate;
	}
}

/** A new assistant with everything of `id` but its name, which says it is a copy. */
export async function duplicateAssistant(db: PalimpsestDb, id: string, now = Date.now()): Promise<AssistantRow> {
	return db.transaction('rw', db.assistants, async () => {
		const source = await db.assistants.get(id);
		if (!source) throw new Error(GONE);
		const all = await db.assistants.toArray();
		if (all.length >= ASSISTANT_LIMITS.assistants) throw new Error(FULL);
		const row: AssistantRow = { ...structuredClone(source), id: crypto.randomUUID(), name: copyName(source.name, new Set(all.map((a) => a.name))), created_at: now, updated_at: now };
		await db.assistants.add(row);
		return row;
	});
}

export async function deleteAssistant(db: PalimpsestDb, id: string): Promise<void> {
	await db.assistants.delete(id);
}

/**
 * Adds imported assistants, each checked already: one whose id the profile has is skipped (the
 * profile's stays as it is), and so is any past the most a profile keeps.
 */
export async function writeImportedAssistants(db: PalimpsestDb, assistants: readonly AssistantRow[]): Promise<{ added: number; skipped: number }> {
	return db.transaction('rw', db.assistants, async () => {
		const ids = new Set((await db.assistants.toCollection().primaryKeys()) as string[]);
		let room = ASSISTANT_LIMITS.assistants - ids.size;
		const added: AssistantRow[] = [];
		for (const assistant of assistants) {
			if (ids.has(assistant.id) || room <= 0) continue;
			ids.add(assistant.id);
			room -= 1;
			added.push(assistant);
		}
		await db.assistants.bulkAdd(added);
		return { added: added.length, skipped: assistants.length - added.length };
	});
}
