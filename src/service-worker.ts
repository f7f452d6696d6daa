// Precaches the app shell so a reload with the network off still opens the app and chats
// with the offline model. Cache-first for the app's own files; navigations fall back to the
// cached copy of that document (a plugin's frame, the sign-in page), else to the cached
// index.html (the SPA shell). A cached answer is sent as the server sent it, headers and all:
// the plugin frame keeps its own policy and sandbox, never the page's.
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
import { base, build, files, version } from '$service-worker';
import { isPrecached } from './vite/precache-filter';

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `palimpsest-${version}`;
const PRECACHE = [...build.filter(isPrecached), ...files, `${base}/`, `${base}/index.html`];

sw.addEventListener('install', (event) => {
	event.waitUntil(
		(async () => {
			try {
				await (await caches.open(CACHE)).addAll(PRECACHE);
			} catch (error) {
				// A half-filled cache must not be taken for a previous version later on.
				await caches.delete(CACHE);
				throw error;
			}
			await sw.skipWaiting();
		})()
	);
});

sw.addEventListener('activate', (event) => {
	event.waitUntil(
		(async () => {
			// Keep the previous version's cache too: a tab still running it may load its lazy
			// chunks (a route, the tokenizer) after this update. Older ones go.
			const ours = (await caches.keys()).filter((key) => key.startsWith('palimpsest-') && key !== CACHE);
			for (const key of ours.slice(0, -1)) await caches.delete(key);
			await sw.clients.claim();
		})()
	);
});

sw.addEventListener('fetch', (event) => {
	const request = event.request;
	if (request.method !== 'GET') return;
	const url = new URL(request.url);
	if (url.origin !== sw.location.origin) return;
	event.respondWith(respond(request, url));
});

async function respond(request: Request, url: URL): Promise<Response> {
	const cache = await caches.open(CACHE);
	if (request.mode === 'navigate') {
		try {
			return await fetch(request);
		} catch {
			return (await cache.match(url.pathname)) ?? (await cache.match(`${base}/index.html`)) ?? Response.error();
		}
	}
	const cached = (await cache.match(url.pathname)) ?? (await caches.match(url.pathname));
	if (cached) return cached;
	try {
		const response = await fetch(request);
		// Lazily loaded chunks (such as a tokenizer table) are kept for the next offline visit.
		if (response.ok && url.pathname.startsWith(`${base}/_app/`)) cache.put(request, response.clone());
		return response;
	} catch {
		return Response.error();
	}
}
