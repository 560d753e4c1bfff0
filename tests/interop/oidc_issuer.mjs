// A real OAuth 2.1 / OpenID authorization server for the authorization tests: the npm package
// oidc-provider (pinned in package.json, installed by setup.sh), configured to issue JWT access
// tokens (RFC 9068) for resource indicators (RFC 8707) through the client_credentials grant.
//
// usage: node oidc_issuer.mjs [PORT]    (0 or nothing: a free port)
// Prints one stdout line once listening: `ISSUER http://127.0.0.1:PORT`. Logs go to stderr.
// Exits when stdin closes (the test dropped it) or on SIGTERM.
//
// Resources: any loopback URL is a resource indicator (so a test can start its MCP server on a
// free port first); its tokens carry `aud` = that URL and the scopes asked for among SCOPES.
// Clients (secret `test-secret`): `mcp-test` (client_secret_basic), `mcp-test-short` (tokens live
// SHORT_TTL seconds, for expiry tests), `mcp-test-other` (client_secret_post, a second owner). A resource ending in `/opaque` gets opaque tokens, which
// only the introspection endpoint can read.
//
// The authorization code flow: clients register themselves (RFC 7591), and the user's login and
// consent are answered programmatically at /interaction/UID (user `alice`, every scope asked for
// granted), so a client that follows the redirects, keeping cookies, ends at its redirect URI
// with a code. Access tokens from codes live CODE_TTL seconds; refresh tokens are always issued,
// and with ROTATE_REFRESH=1 each is used once (a new one per refresh; a used one presented again is
// refused and revokes its grant, as the provider does for public clients).
// DPoP (RFC 9449) is on, as oidc-provider ships it: a token request with a proof gets a token
// bound to its key (`token_type` DPoP, `cnf.jkt`); DPOP_NONCE=1 also requires the provider's
// nonces in proofs (RFC 9449 section 8).
// REQUEST_LOG=FILE appends a line per request (`GET /auth`) and per token grant (`grant
// refresh_token`, `grant-error refresh_token invalid_grant`), so a test can tell what a client did.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as http from 'node:http';
import * as crypto from 'node:crypto';
import { appendFileSync } from 'node:fs';

// oidc-provider logs notices with console.info; stdout carries only the ISSUER line.
console.info = (...a) => console.error(...a);
console.log = (...a) => console.error(...a);

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.MCP_INTEROP_NODE_DIR
  ?? join(process.env.TARGET ?? resolve(here, '../../target/interop'), 'node');
const require = createRequire(join(nodeDir, 'package.json'));
const providerPath = require.resolve('oidc-provider');
const { default: Provider, errors } = await import(providerPath);
const { createMemoryAdapter } = await import(join(dirname(providerPath), 'adapters/memory_adapter.js'));

const PORT = Number(process.argv[2] ?? 0);
const SCOPES = process.env.SCOPES ?? 'calc profile';
const SHORT_TTL = Number(process.env.SHORT_TTL ?? 2);
const CODE_TTL = Number(process.env.CODE_TTL ?? 3600);
const log = (line) => { if (process.env.REQUEST_LOG) appendFileSync(process.env.REQUEST_LOG, `${line}\n`); };
const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'es256-test', use: 'sig', alg: 'ES256' };

const loopback = (url) => {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch { return false; }
};

const server = http.createServer();
server.on('error', (err) => { console.error(`listen failed: ${err.message}`); process.exit(1); });
server.listen(PORT, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const client = (id, method) => ({
    client_id: id, client_secret: 'test-secret', grant_types: ['client_credentials'],
    response_types: [], redirect_uris: [], token_endpoint_auth_method: method,
  });
  const provider = new Provider(issuer, {
    adapter: createMemoryAdapter(),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-only-cookie-key'] },
    clients: [
      client('mcp-test', 'client_secret_basic'),
      client('mcp-test-short', 'client_secret_post'),
      client('mcp-test-other', 'client_secret_post'),
    ],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    // Also the resource scopes, so that a client may name them when it registers.
    scopes: ['openid', 'offline_access', ...SCOPES.split(' ')],
    findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
    ...(process.env.ROTATE_REFRESH === '1' ? { rotateRefreshToken: true } : {}),
    pkce: { required: () => true },
    features: {
      registration: { enabled: true },
      dPoP: {
        enabled: true,
        ...(process.env.DPOP_NONCE === '1'
          ? { nonceSecret: crypto.randomBytes(32), requireNonce: () => true }
          : {}),
      },
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
      revocation: { enabled: true, allowedPolicy: async () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (ctx, client, oneOf) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx, indicator) => {
          if (!loopback(indicator)) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
          const opaque = indicator.endsWith('/opaque');
          // Code-flow tokens expire after CODE_TTL, so that clients must refresh them.
          const grantType = ctx.oidc?.params?.grant_type;
          const codeFlow = grantType === 'authorization_code' || grantType === 'refresh_token';
          return {
            scope: SCOPES, audience: indicator, accessTokenTTL: codeFlow ? CODE_TTL : 3600,
            accessTokenFormat: opaque ? 'opaque' : 'jwt',
          };
        },
      },
    },
    ttl: {
      ClientCredentials: (ctx, token, client) =>
        client?.clientId === 'mcp-test-short' ? SHORT_TTL : (token.resourceServer?.accessTokenTTL ?? 600),
      AccessToken: (ctx, token) => token.resourceServer?.accessTokenTTL ?? 3600,
      AuthorizationCode: 60,
      RefreshToken: 3600,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
  });
  provider.on('server_error', (ctx, err) => console.error('server_error', err));
  provider.on('grant.success', (ctx) => log(`grant ${ctx.oidc.params.grant_type}`));
  provider.on('grant.error', (ctx, err) => log(`grant-error ${ctx.oidc.params?.grant_type} ${err.error}`));
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    log(`${req.method} ${new URL(req.url, 'http://x').pathname}`);
    const match = /^\/interaction\/([^/?]+)/.exec(req.url);
    if (!match) return callback(req, res);
    try {
      // The user: logs in as alice, then grants every scope the client asked for.
      const details = await provider.interactionDetails(req, res);
      let result;
      if (details.prompt.name === 'login') {
        result = { login: { accountId: 'alice' } };
      } else {
        const grant = details.grantId
          ? await provider.Grant.find(details.grantId)
          : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
        const missing = details.prompt.details;
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
          grant.addResourceScope(indicator, scopes.join(' '));
        }
        result = { consent: { grantId: await grant.save() } };
      }
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
    } catch (err) {
      console.error('interaction failed', err);
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  process.stdout.write(`ISSUER ${issuer}\n`);
});

const shutdown = () => { server.close(); process.exit(0); };
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
