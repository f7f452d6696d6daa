// What the app says of itself to a tool server's authorization server when it registers
// (OAuth dynamic client registration): a public client, signing in with an authorization code
// (PKCE) that comes back to the app's callback page, and refreshing its tokens.
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';

/** The page a sign-in comes back to (static/oauth-callback.html), on the app's origin. */
export const CALLBACK_PATH = '/oauth-callback.html';

export function clientMetadata(redirectUrl: string): OAuthClientMetadata {
	return {
		client_name: 'Palimpsest',
		redirect_uris: [redirectUrl],
		grant_types: ['authorization_code', 'refresh_token'],
		response_types: ['code'],
		// A page cannot keep a client secret: PKCE stands in for it.
		token_endpoint_auth_method: 'none'
	};
}

/** An unguessable OAuth `state` for one sign-in (256 random bits, base64url). */
export function randomState(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(32));
	return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
