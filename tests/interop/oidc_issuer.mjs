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
// SHORT_TTL seconds, for expiry tests). A resource ending in `/opaque` gets opaque tokens, which
// only the introspection endpoint can read.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as http from 'node:http';
import * as crypto from 'node:crypto';

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
    clients: [client('mcp-test', 'client_secret_basic'), client('mcp-test-short', 'client_secret_post')],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    features: {
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
          return { scope: SCOPES, audience: indicator, accessTokenTTL: 3600, accessTokenFormat: opaque ? 'opaque' : 'jwt' };
        },
      },
    },
    ttl: {
      ClientCredentials: (ctx, token, client) =>
        client?.clientId === 'mcp-test-short' ? SHORT_TTL : (token.resourceServer?.accessTokenTTL ?? 600),
      AccessToken: (ctx, token) => token.resourceServer?.accessTokenTTL ?? 3600,
    },
  });
  provider.on('server_error', (ctx, err) => console.error('server_error', err));
  server.on('request', provider.callback());
  process.stdout.write(`ISSUER ${issuer}\n`);
});

const shutdown = () => { server.close(); process.exit(0); };
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
