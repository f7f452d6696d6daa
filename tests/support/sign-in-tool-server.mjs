// A tool server that asks for sign-in, for the browser tests, run as its own process: an MCP
// server (Streamable HTTP, one tool `add`) behind the SDK's requireBearerAuth, and its OAuth
// authorization server on a port of its own (the SDK's mcpAuthRouter over its demo in-memory
// provider). `authorize` signs the user in at once, with no form. Access tokens live
// ACCESS_TOKEN_SECONDS (2 s), so a test sees them refreshed; refresh tokens are rotated. Every
// token starts with SENTINEL, so a test can look for any of them anywhere.
//
// Environment: MCP_PORT, AUTH_PORT (free loopback ports), APP_ORIGIN (the app's origin, let in
// by CORS). For the tests only, the authorization server answers GET /test/stats (how many
// tokens it issued, how many by refresh, how many access tokens still live) and POST
// /test/forget-refresh-tokens (no refresh works after).
import { randomUUID } from 'node:crypto';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const MCP_PORT = Number(process.env.MCP_PORT);
const AUTH_PORT = Number(process.env.AUTH_PORT);
const APP_ORIGIN = process.env.APP_ORIGIN ?? '*';
const ACCESS_TOKEN_SECONDS = Number(process.env.ACCESS_TOKEN_SECONDS ?? 2);

const mcpUrl = new URL(`http://127.0.0.1:${MCP_PORT}/mcp`);
const issuerUrl = new URL(`http://127.0.0.1:${AUTH_PORT}/`);

/** The demo provider, issuing short-lived access tokens and rotated refresh tokens. */
class ShortLivedTokens extends DemoInMemoryAuthProvider {
	/** @type {Map<string, { clientId: string, scopes: string[], resource?: URL }>} */
	refreshTokens = new Map();
	stats = { issued: 0, refreshed: 0 };

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
		this.stats.issued += 1;
		return { access_token: access, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh, scope: scopes.join(' ') };
	}
}

const provider = new ShortLivedTokens();

const authApp = createMcpExpressApp();
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
authApp.get('/test/stats', (_req, res) => {
	const live = [...provider.tokens.values()].filter((token) => token.expiresAt > Date.now()).length;
	res.json({ ...provider.stats, live });
});
authApp.post('/test/forget-refresh-tokens', (_req, res) => {
	provider.refreshTokens.clear();
	res.json({ ok: true });
});

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
mcpApp.use(mcpAuthMetadataRouter({ oauthMetadata: createOAuthMetadata({ provider, issuerUrl }), resourceServerUrl: mcpUrl }));
const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });

/** @type {Map<string, StreamableHTTPServerTransport>} */
const sessions = new Map();
mcpApp.all('/mcp', bearer, async (req, res) => {
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
	mcpApp.listen(MCP_PORT, '127.0.0.1', () => console.log(`Sign-in tool server listening on port ${MCP_PORT}, its authorization server on ${AUTH_PORT}`));
});
