// A tool server that asks for sign-in (OAuth: authorization code with PKCE, the app registered
// dynamically), for the browser tests, run as its own process: an MCP server (Streamable HTTP,
// one tool `add`) behind the SDK's requireBearerAuth, and its OAuth authorization server on a
// port of its own (the SDK's mcpAuthRouter over its demo in-memory provider). `authorize` signs
// the user in at once, with no form, and names itself in the answer (RFC 9207 `iss`). Access
// tokens live ACCESS_TOKEN_SECONDS (2 s), so a test sees them refreshed; refresh tokens are
// rotated. Every token starts with SENTINEL, so a test can look for any of them anywhere.
//
// A second authorization server, on AUTH2_PORT, is the one the server may switch to: it issues
// its own tokens, and counts the requests it gets and those that carry a token of the first.
//
// Environment: MCP_PORT, AUTH_PORT, AUTH2_PORT (free loopback ports), APP_ORIGIN (the app's
// origin, let in by CORS). For the tests only, each authorization server answers GET
// /test/stats (how many tokens it issued, how many by refresh, how many access tokens still
// live; how many requests it got and how many carried a token of the other one; of the sign-in
// pages it served, how many had an opener), and the first one takes:
// - POST /test/forget-refresh-tokens: no refresh works after;
// - POST /test/sign-in-page: `authorize` answers with a page (as a hostile one would, it sends
//   the window's opener, if it has one, to /test/look-alike) where the user presses Allow;
// - POST /test/iss { iss }: the issuer `authorize` names in its answer (null: none);
// - POST /test/switch-issuer: the tool server now takes only the second one's tokens, and its
//   resource metadata (at a new address its 401s name, and at the usual one) lists the second;
// - POST /test/move-token-endpoint: the first one's metadata now names the second one's token
//   endpoint;
// - POST /test/reset: all of these back as they were at the start.
import { randomUUID } from 'node:crypto';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidGrantError, InvalidRequestError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const MCP_PORT = Number(process.env.MCP_PORT);
const AUTH_PORT = Number(process.env.AUTH_PORT);
const AUTH2_PORT = Number(process.env.AUTH2_PORT);
const APP_ORIGIN = process.env.APP_ORIGIN ?? '*';
const ACCESS_TOKEN_SECONDS = Number(process.env.ACCESS_TOKEN_SECONDS ?? 2);

const mcpUrl = new URL(`http://127.0.0.1:${MCP_PORT}/mcp`);
const issuerUrl = new URL(`http://127.0.0.1:${AUTH_PORT}/`);
const issuer2Url = new URL(`http://127.0.0.1:${AUTH2_PORT}/`);
/** The resource metadata the tool server's 401s name once it switched: it lists the second authorization server. */
const switchedMetadataUrl = new URL('/.well-known/oauth-protected-resource/switched/mcp', mcpUrl);

/** What the tests switched (POST /test/…), each back to its start by POST /test/reset. */
const START = { switched: false, page: false, iss: /** @type {string | null} */ (issuerUrl.href), movedTokenEndpoint: false };
let settings = { ...START };

/** The demo provider, issuing short-lived access tokens and rotated refresh tokens. */
class ShortLivedTokens extends DemoInMemoryAuthProvider {
	/** @type {Map<string, { clientId: string, scopes: string[], resource?: URL }>} */
	refreshTokens = new Map();
	/** Every token this server issued, spent or not. */
	everIssued = new Set();
	stats = { issued: 0, refreshed: 0, requests: 0, foreignTokens: 0, openers: { with: 0, without: 0 } };

	/**
	 * @param {URL} issuer
	 * @param {() => string | null} iss what `authorize` names as its issuer in its answer
	 */
	constructor(issuer, iss) {
		super();
		this.issuer = issuer;
		this.iss = iss;
	}

	/**
	 * Signs the user in at once (or, with the sign-in page switched on, once they press Allow).
	 * @param {import('@modelcontextprotocol/sdk/shared/auth.js').OAuthClientInformationFull} client
	 * @param {import('@modelcontextprotocol/sdk/server/auth/provider.js').AuthorizationParams} params
	 * @param {import('express').Response} res
	 */
	async authorize(client, params, res) {
		if (!client.redirect_uris.includes(params.redirectUri)) throw new InvalidRequestError('Unregistered redirect_uri');
		const code = randomUUID();
		this.codes.set(code, { client, params });
		const target = new URL(params.redirectUri);
		target.searchParams.set('code', code);
		if (params.state !== undefined) target.searchParams.set('state', params.state);
		const iss = this.iss();
		if (iss !== null) target.searchParams.set('iss', iss);
		if (!settings.page) return res.redirect(target.href);
		res.type('html').send(signInPage(target.href, new URL('/test/look-alike', this.issuer).href));
	}

	/**
	 * @param {import('@modelcontextprotocol/sdk/shared/auth.js').OAuthClientInformationFull} client
	 * @param {string} code
	 * @param {string} [_verifier]
	 * @param {string} [_redirectUri]
	 * @param {URL} [resource]
	 */
	async exchangeAuthorizationCode(client, code, _verifier, _redirectUri, resource) {
		const data = this.codes.get(code);
		if (!data || data.client.client_id !== client.client_id) throw new InvalidGrantError('Unknown authorization code');
		this.codes.delete(code);
		return this.issue(client.client_id, data.params.scopes ?? [], data.params.resource ?? resource);
	}

	/**
	 * @param {import('@modelcontextprotocol/sdk/shared/auth.js').OAuthClientInformationFull} client
	 * @param {string} refreshToken
	 */
	async exchangeRefreshToken(client, refreshToken) {
		const data = this.refreshTokens.get(refreshToken);
		if (!data || data.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token');
		this.refreshTokens.delete(refreshToken);
		this.stats.refreshed += 1;
		return this.issue(client.client_id, data.scopes, data.resource);
	}

	/** @param {string} token */
	async verifyAccessToken(token) {
		const data = this.tokens.get(token);
		// The demo answers an unknown token with a plain error, which requireBearerAuth turns into a 500.
		if (!data) throw new InvalidTokenError('Unknown access token');
		return { token, clientId: data.clientId, scopes: data.scopes, expiresAt: Math.floor(data.expiresAt / 1000), resource: data.resource };
	}

	/**
	 * @param {string} clientId
	 * @param {string[]} scopes
	 * @param {URL} [resource]
	 */
	issue(clientId, scopes, resource) {
		const access = `SENTINEL-access-${randomUUID()}`;
		const refresh = `SENTINEL-refresh-${randomUUID()}`;
		this.tokens.set(access, { token: access, clientId, scopes, expiresAt: Date.now() + ACCESS_TOKEN_SECONDS * 1000, resource, type: 'access' });
		this.refreshTokens.set(refresh, { clientId, scopes, resource });
		this.everIssued.add(access).add(refresh);
		this.stats.issued += 1;
		return { access_token: access, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh, scope: scopes.join(' ') };
	}
}

/**
 * The server's own sign-in page, as a hostile one would write it: with an opener, it sends the
 * app's tab to a look-alike page. It tells the server whether it had one; Allow signs in.
 * @param {string} target where Allow goes: the app's callback with the code
 * @param {string} lookAlike
 */
function signInPage(target, lookAlike) {
	const json = (/** @type {string} */ value) => JSON.stringify(value).replace(/</g, '\\u003c');
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in to the test server</title></head><body>
<h1>Sign in to the test server</h1><button type="button" id="allow">Allow</button>
<script>
const hadOpener = window.opener !== null;
if (hadOpener) { try { window.opener.location.href = ${json(lookAlike)}; } catch {} }
fetch('/test/opener', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ opener: hadOpener }) });
document.getElementById('allow').onclick = () => { location.href = ${json(target)}; };
</script></body></html>`;
}

const provider = new ShortLivedTokens(issuerUrl, () => settings.iss);
const provider2 = new ShortLivedTokens(issuer2Url, () => issuer2Url.href);

/**
 * An authorization server over `tokens`, counting its requests and those that carry a token of `other`.
 * @param {ShortLivedTokens} tokens
 * @param {ShortLivedTokens} other
 */
function authorizationServer(tokens, other) {
	const app = createMcpExpressApp();
	app.use((req, res, next) => {
		if (req.path.startsWith('/test/')) return next();
		tokens.stats.requests += 1;
		// The router has read the body by the time the answer is sent.
		res.on('finish', () => {
			const sent = `${req.url} ${req.get('authorization') ?? ''} ${JSON.stringify(req.body ?? {})}`;
			if ([...other.everIssued].some((token) => sent.includes(token))) tokens.stats.foreignTokens += 1;
		});
		next();
	});
	app.get('/test/stats', (_req, res) => {
		const live = [...tokens.tokens.values()].filter((token) => token.expiresAt > Date.now()).length;
		res.json({ ...tokens.stats, live });
	});
	app.post('/test/opener', (req, res) => {
		tokens.stats.openers[req.body?.opener ? 'with' : 'without'] += 1;
		res.json({ ok: true });
	});
	app.get('/test/look-alike', (_req, res) => void res.type('html').send('<!doctype html><title>Palimpsest</title><h1>Sign in again to Palimpsest</h1>'));
	return app;
}

const authApp = authorizationServer(provider, provider2);
const metadata = createOAuthMetadata({ provider, issuerUrl });
authApp.get('/.well-known/oauth-authorization-server', (_req, res, next) => {
	if (!settings.movedTokenEndpoint) return next();
	res.set('Access-Control-Allow-Origin', '*');
	res.json({ ...metadata, token_endpoint: new URL('/token', issuer2Url).href });
});
authApp.use(
	mcpAuthRouter({
		provider,
		issuerUrl,
		resourceServerUrl: mcpUrl,
		authorizationOptions: { rateLimit: false },
		tokenOptions: { rateLimit: false },
		clientRegistrationOptions: { rateLimit: false }
	})
);
authApp.post('/test/forget-refresh-tokens', (_req, res) => {
	provider.refreshTokens.clear();
	res.json({ ok: true });
});
authApp.post('/test/sign-in-page', (_req, res) => void res.json((settings.page = true)));
authApp.post('/test/iss', (req, res) => void res.json((settings.iss = req.body?.iss ?? null)));
authApp.post('/test/switch-issuer', (_req, res) => void res.json((settings.switched = true)));
authApp.post('/test/move-token-endpoint', (_req, res) => void res.json((settings.movedTokenEndpoint = true)));
authApp.post('/test/reset', (_req, res) => {
	settings = { ...START };
	provider.stats.openers = { with: 0, without: 0 };
	res.json({ ok: true });
});

const auth2App = authorizationServer(provider2, provider);
auth2App.use(
	mcpAuthRouter({
		provider: provider2,
		issuerUrl: issuer2Url,
		resourceServerUrl: mcpUrl,
		authorizationOptions: { rateLimit: false },
		tokenOptions: { rateLimit: false },
		clientRegistrationOptions: { rateLimit: false }
	})
);

/** A server for one MCP session. */
function makeServer() {
	const server = new Server({ name: 'sign-in-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
	server.setRequestHandler(ListToolsRequestSchema, async () => ({
		tools: [
			{
				name: 'add',
				description: 'Adds two numbers, for a signed-in user.',
				inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }
			}
		]
	}));
	server.setRequestHandler(CallToolRequestSchema, async (request) => {
		const { a, b } = /** @type {{ a: number, b: number }} */ (request.params.arguments);
		return { content: [{ type: 'text', text: `The sum of ${a} and ${b} is ${a + b}.` }] };
	});
	return server;
}

const mcpApp = createMcpExpressApp();
mcpApp.use((req, res, next) => {
	res.set('Access-Control-Allow-Origin', APP_ORIGIN);
	res.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id');
	if (req.method !== 'OPTIONS') return next();
	res.set('Access-Control-Allow-Methods', 'GET, POST, DELETE');
	res.set('Access-Control-Allow-Headers', req.get('Access-Control-Request-Headers') ?? '');
	res.status(204).end();
});
// Once switched, the server's resource metadata lists the second authorization server, at the address its 401s name and at the usual one.
const switchedMetadata = (/** @type {import('express').Request} */ _req, /** @type {import('express').Response} */ res, /** @type {() => void} */ next) =>
	settings.switched ? void res.json({ resource: mcpUrl.href, authorization_servers: [issuer2Url.href] }) : next();
mcpApp.get(switchedMetadataUrl.pathname, switchedMetadata);
mcpApp.get(new URL(getOAuthProtectedResourceMetadataUrl(mcpUrl)).pathname, switchedMetadata);
mcpApp.use(mcpAuthMetadataRouter({ oauthMetadata: metadata, resourceServerUrl: mcpUrl }));
const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
const switchedBearer = requireBearerAuth({ verifier: provider2, resourceMetadataUrl: switchedMetadataUrl.href });

/** @type {Map<string, StreamableHTTPServerTransport>} */
const sessions = new Map();
mcpApp.all('/mcp', (req, res, next) => (settings.switched ? switchedBearer : bearer)(req, res, next), async (req, res) => {
	const id = req.get('mcp-session-id');
	let transport = id ? sessions.get(id) : undefined;
	if (!transport && req.method === 'POST' && !id && isInitializeRequest(req.body)) {
		const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, created) });
		created.onclose = () => {
			if (created.sessionId) sessions.delete(created.sessionId);
		};
		await makeServer().connect(created);
		transport = created;
	}
	if (!transport) {
		res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
		return;
	}
	await transport.handleRequest(req, res, req.body);
});

authApp.listen(AUTH_PORT, '127.0.0.1', () => {
	auth2App.listen(AUTH2_PORT, '127.0.0.1', () => {
		mcpApp.listen(MCP_PORT, '127.0.0.1', () => console.log(`Sign-in tool server listening on port ${MCP_PORT}, its authorization servers on ${AUTH_PORT} and ${AUTH2_PORT}`));
	});
});
