import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openProfileDb } from '../../db/database';
import { createSession } from '../../sessions/session-lifecycle';
import { wordingText, type ConfirmRequest } from '../shared/confirm.svelte';
import { deletionPrompt, LISTED_SESSIONS, planDeletionPrompt, type DeletionPlan } from './deletion-prompt';

/** The question as the dialog reads, in plain text. */
const plain = ({ message, items, ...rest }: ConfirmRequest) => ({ ...rest, message: wordingText(message), ...(items ? { items: items.map(wordingText) } : {}) });

const row = (id: string, title: string, more: Partial<DeletionPlan['taken'][number]> = {}): DeletionPlan['taken'][number] => ({
	id,
	title,
	end_reason: null,
	parent_kind: null,
	...more
});

describe('the question before a deletion', () => {
	it('names the one session it takes', () => {
		expect(plain(deletionPrompt({ named: ['a'], taken: [row('a', 'Plans')] }))).toEqual({
			title: 'Delete this session?',
			message: '“Plans” and all its messages will be deleted. This cannot be undone.',
			confirmLabel: 'Delete',
			danger: true
		});
		expect(plain(deletionPrompt({ named: ['a'], taken: [row('a', 'Plans')] }, { exiting: true })).message).toBe('“Plans” will be ended and deleted with all its messages. This cannot be undone.');
	});

	it('lists every session when one deletion takes several, also those the user did not pick', () => {
		const prompt = plain(deletionPrompt({
			named: ['c'],
			taken: [row('c', 'Plans'), row('b', 'Plans', { end_reason: 'compression' }), row('d', 'Research', { parent_kind: 'delegate' })]
		}));
		expect(prompt.title).toBe('Delete 3 sessions?');
		expect(prompt.message).toMatch(/^This session goes with the sessions linked to it .*These 3 sessions and all their messages will be deleted\./);
		expect(prompt.items).toEqual(['“Plans”', '“Plans” (earlier part of the conversation)', '“Research” (sub-agent)']);
	});

	it('gives each title a part of its own, for the dialog to show it isolated from the words around it', () => {
		expect(deletionPrompt({ named: ['a'], taken: [row('a', 'خطة الرحلة')] }).message).toEqual(['“', { title: 'خطة الرحلة' }, '”', ' and all its messages will be deleted. This cannot be undone.']);
		const prompt = deletionPrompt({ named: ['a', 'b'], taken: [row('a', 'One'), row('b', 'Two', { end_reason: 'compression' })] });
		expect(prompt.items).toEqual([['“', { title: 'One' }, '”', ''], ['“', { title: 'Two' }, '”', ' (earlier part of the conversation)']]);
	});

	it('lists a multi-selection too', () => {
		const prompt = plain(deletionPrompt({ named: ['a', 'b'], taken: [row('a', 'One'), row('b', 'Two')] }));
		expect(prompt.title).toBe('Delete these 2 sessions?');
		expect(prompt.items).toEqual(['“One”', '“Two”']);
	});

	it('keeps a long list short: the first few, then how many more', () => {
		const taken = Array.from({ length: 25 }, (_, i) => row(`s${i}`, `Session ${i} ${'x'.repeat(100)}`));
		const prompt = plain(deletionPrompt({ named: ['s0'], taken }));
		expect(prompt.title).toBe('Delete 25 sessions?');
		expect(prompt.items).toHaveLength(LISTED_SESSIONS);
		expect(prompt.items!.at(-1)).toBe(`and ${25 - LISTED_SESSIONS + 1} more`);
		expect(prompt.items![0].length).toBeLessThanOrEqual(82);
	});
});

describe('the question reads the sessions as the deletion will', () => {
	it('lists the whole lineage of a rotated conversation, and nothing of another origin', async () => {
		const db = openProfileDb(`prompt-${crypto.randomUUID()}`);
		const ctx = { db, profile: 'home', platform: 'web' };
		const model = { provider: 'offline', model: 'offline-mini' };
		const first = await createSession(ctx, { ...model, title: 'Trip' });
		await db.sessions.update(first.id, { ended_at: 1, end_reason: 'compression' });
		const next = await createSession(ctx, { ...model, title: 'Trip', parent_session_id: first.id, parent_kind: 'compression' });
		const brought = await createSession(ctx, { ...model, title: 'Imported', parent_session_id: next.id, parent_kind: 'delegate' });
		await db.sessions.update(brought.id, { import_id: 'import-1' });
		const prompt = plain(await planDeletionPrompt(db, [next.id]));
		expect(prompt).toMatchObject({ title: 'Delete 2 sessions?', items: ['“Trip”', '“Trip” (earlier part of the conversation)'] });
		expect(plain(await planDeletionPrompt(db, [brought.id]))).toMatchObject({ title: 'Delete this session?', message: expect.stringContaining('“Imported”') });
		await db.delete();
	});
});
