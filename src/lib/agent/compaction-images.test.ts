// Compaction and images: older turns' images stop being sent first (a note goes instead, the
// Blob stays for the transcript, Undo compaction brings them back), the before and after
// figures count images, and a summary names the attachments of what it replaces.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { listActiveMessages } from '../db/compaction-verbs';
import { appendMessages, listMessages, readImages, type NewMessage } from '../db/message-verbs';
import type { Attachment } from '../db/schema';
import { commitUndoCompaction } from '../db/undo-compaction-verbs';
import { imageTokens } from '../attachments/image-tokens';
import { createOfflineProvider } from '../providers/offline';
import type { ChatMessage } from '../providers/types';
import { compactSession } from './compact-session';
import { createTurnCompaction } from './compaction-gates';
import { say, scripted, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import { readRequestFrame } from '../db/request-frames';
import { describeRequest } from './describe-request';
import type { RequestFrame } from './request-recipe';
import { runTurn } from './run-turn';

const setup = useCompactionEnv('compaction-images');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
/** 1,280 tokens each by Anthropic's rule: three of them overflow the test window's threshold (3,200 of 4,000). */
const IMAGE_TOKENS = imageTokens('anthropic', 1200, 800);

const image = (i: number): Attachment => ({ type: 'image', id: `img-${i}`, name: `photo-${i}.png`, mimeType: 'image/png', size: PNG.length, width: 1200, height: 800 });
const notes: Attachment = { type: 'file', id: 'notes', name: 'notes.md', mimeType: 'text/markdown', size: 5 };

/** `turns` exchanges, each user message with one image (the first also with a text file). */
async function seedImageTurns(sessionId: string, turns: number): Promise<void> {
	const rows: NewMessage[] = [];
	for (let i = 0; i < turns; i++) {
		rows.push({ id: `u${i}`, role: 'user', kind: 'message', status: 'complete', created_at: 1, content: `What is in picture ${i}?`, attachments: i === 0 ? [image(i), notes] : [image(i)] });
		rows.push({ id: `a${i}`, role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: `Picture ${i} shows a harbour at dusk.` });
	}
	const blobs = [
		...Array.from({ length: turns }, (_, i) => ({ id: `img-${i}`, type: 'image/png', data: new Blob([PNG], { type: 'image/png' }) })),
		{ id: 'notes', type: 'text/markdown', data: new Blob(['notes'], { type: 'text/markdown' }) }
	];
	await appendMessages(db, sessionId, rows, 1, {}, blobs);
}

const withImages = (messages: readonly ChatMessage[]) => messages.filter((message) => message.images?.length).map((message) => message.content);

describe('older images are the first to go', () => {
	it('a turn over the threshold stops sending older turns’ images: a note in the request, the Blob kept, one post_compaction counting the images', async () => {
		const id = await env.newSession();
		await seedImageTurns(id, 3);
		const { provider, requests } = scripted(() => say('Noted.'));
		const compaction = env.deps({ provider, summarizer: { provider: createOfflineProvider({ delayMs: 0 }), model: 'offline-mini', windowTokens: 32_000 } });
		compaction.request = { ...compaction.request, imageApi: 'anthropic' };
		const deps = { db, provider, model: 'offline-mini', profile: 'default', platform: 'web', hooks: env.bus.hooks, systemPrompt: 'SYS', checkpointMs: 0, compaction: createTurnCompaction(compaction, { resumed: false }) };

		await runTurn(deps, { sessionId: id, text: 'And the last one, closer?' });
		await env.bus.hooks.settled();

		const events = env.bus.of('post_compaction');
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ kind: 'prune_tool_results', reason: 'pre_api', messages_removed: 2 });
		const { before_tokens, after_tokens } = events[0] as { before_tokens: number; after_tokens: number };
		expect(before_tokens).toBeGreaterThan(3 * IMAGE_TOKENS);
		// Two images no longer sent, less the two short notes that stand for them.
		expect(before_tokens - after_tokens).toBeGreaterThan(2 * IMAGE_TOKENS - 40);
		expect(before_tokens - after_tokens).toBeLessThan(2 * IMAGE_TOKENS);

		const sent = requests[0].messages;
		expect(withImages(sent)).toEqual(['What is in picture 2?']);
		const first = sent.find((message) => message.content.startsWith('What is in picture 0?'))!;
		expect(first.content).toBe('What is in picture 0?\n[photo-0.png (image), not sent again]');
		expect(first.images).toBeUndefined();
		// The file still goes: only images are pruned.
		expect(first.files).toEqual([{ name: 'notes.md', text: 'notes' }]);
		expect((await readImages(db, id, ['img-0', 'img-1', 'img-2'])).size).toBe(3);
		// What the model received says which images went as a note.
		const rows = await listMessages(db, id);
		const answer = rows.findLast((row) => row.role === 'assistant')!;
		const frame = (await readRequestFrame(db, answer.sent!.frame)) as RequestFrame;
		const parts = (await describeRequest(answer.sent!, frame, rows)).parts.filter((part) => part.attachments);
		expect(parts.map((part) => part.attachments!.at(0))).toEqual([
			`photo-0.png, image/png, 1200 × 800, ${PNG.length} bytes, not sent again`,
			`photo-1.png, image/png, 1200 × 800, ${PNG.length} bytes, not sent again`,
			`photo-2.png, image/png, 1200 × 800, ${PNG.length} bytes`
		]);
		// The transcript still shows them: the live copies keep their attachments.
		const live = await listActiveMessages(db, id);
		expect(live.filter((row) => row.attachments?.length).map((row) => [row.content, row.images_pruned ?? false])).toEqual([
			['What is in picture 0?', true],
			['What is in picture 1?', true],
			['What is in picture 2?', false]
		]);
	});

	it('Undo compaction sends the images again', async () => {
		const id = await env.newSession();
		await seedImageTurns(id, 3);
		const deps = env.deps();
		deps.request = { ...deps.request, imageApi: 'anthropic' };
		const outcome = await compactSession(deps, { sessionId: id, reason: 'manual', kind: 'prune_tool_results', images: 'only' });
		expect(outcome.status).toBe('compacted');
		const marker = (await listActiveMessages(db, id)).find((row) => row.compaction)!;
		await commitUndoCompaction(db, id, marker.compaction!.id, 2);
		const live = await listActiveMessages(db, id);
		expect(live.filter((row) => row.attachments?.length).map((row) => row.images_pruned ?? false)).toEqual([false, false, false]);
		expect(live.filter((row) => row.attachments?.length).map((row) => row.id)).toEqual(['u0', 'u1', 'u2']);
	});

	it('with only the latest turn’s images, there is nothing to prune: nothing changes and nothing fires', async () => {
		const id = await env.newSession();
		await seedImageTurns(id, 1);
		const deps = env.deps();
		deps.request = { ...deps.request, imageApi: 'anthropic' };
		const before = await listMessages(db, id);
		const outcome = await compactSession(deps, { sessionId: id, reason: 'pre_api', kind: 'prune_tool_results', images: 'only' });
		await env.bus.hooks.settled();
		expect(outcome).toMatchObject({ status: 'noop', why: 'nothing' });
		expect(env.bus.of('post_compaction')).toEqual([]);
		expect(await listMessages(db, id)).toEqual(before);
	});

	it('where no image is sent (the offline model), there is nothing to prune, and no pause keeps the summary from running', async () => {
		const id = await env.newSession();
		await seedImageTurns(id, 3);
		const outcome = await compactSession(env.deps(), { sessionId: id, reason: 'pre_api', kind: 'prune_tool_results', images: 'only' });
		await env.bus.hooks.settled();
		expect(outcome).toMatchObject({ status: 'noop', why: 'nothing' });
		expect(env.bus.of('post_compaction')).toEqual([]);
		expect((await db.sessions.get(id))!.compaction.cooldown_until).toBe(0);
	});
});

describe('a summary names the attachments it replaces', () => {
	it('the summarising model reads their names, sizes and types', async () => {
		const id = await env.newSession();
		await seedImageTurns(id, 3);
		const { provider, requests } = scripted(() => say('## Goal\n- Compare the pictures'));
		const outcome = await compactSession(env.deps({ summarizer: { provider, model: 'writer', windowTokens: 32_000 } }), { sessionId: id, reason: 'manual' });
		expect(outcome.status).toBe('compacted');
		const prompt = requests[0].messages.map((message) => message.content).join('\n');
		expect(prompt).toContain('What is in picture 0?\n[attached: photo-0.png (image, 1200 × 800), notes.md]');
		expect(prompt).toContain('[attached: photo-1.png (image, 1200 × 800)]');
	});

	it('the offline model’s extractive summary lists them under files and references', async () => {
		const id = await env.newSession();
		await seedImageTurns(id, 3);
		// Counted as sent to Anthropic, the images make the summary worth its while.
		const deps = env.deps();
		deps.request = { ...deps.request, imageApi: 'anthropic' };
		const outcome = await compactSession(deps, { sessionId: id, reason: 'manual' });
		expect(outcome.status).toBe('compacted');
		const summary = (await listActiveMessages(db, id)).find((row) => row.kind === 'summary')!.content;
		expect(summary).toContain('Attached: photo-0.png (image, 1200 × 800), notes.md');
		expect(summary).toContain('Attached: photo-1.png (image, 1200 × 800)');
	});
});
