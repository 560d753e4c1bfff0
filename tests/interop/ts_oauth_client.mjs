#!/usr/bin/env node
// Interop check: the official TypeScript SDK 1.32.x client authorizes with its own OAuth support.
//
// Usage: node ts_oauth_client.mjs [--wait S] [--timeout S] --url URL
//
// Connects to a protected Streamable HTTP endpoint with an `authProvider` (the SDK's OAuth 2.1
// client: discovery, dynamic registration, PKCE, refresh). The user's part is answered here:
// `redirectToAuthorization` follows the authorization server's redirects (login, consent; cookies
// kept) to the redirect URI and keeps its code; as the SDK documents, `connect` then throws
// UnauthorizedError, the code goes to `transport.finishAuth`, and the client connects again.
// Then it calls add {"a": 2, "b": 40}, waits --wait seconds (so that the short-lived token expires
// and the server refuses it), calls add and whoami again, and checks that the token was refreshed.
// Prints one JSON summary line and exits 0; prints "ts_oauth_client: FAIL: ..." and exits 1.
// The SDK is loaded from $MCP_INTEROP_NODE_DIR, else ${TARGET:-<repo>/target/interop}/node.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.MCP_INTEROP_NODE_DIR
  ?? join(process.env.TARGET ?? resolve(here, '../../target/interop'), 'node');
const require = createRequire(join(nodeDir, 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { UnauthorizedError } = require('@modelcontextprotocol/sdk/client/auth.js');

function fail(msg) {
  console.error(`ts_oauth_client: FAIL: ${msg}`);
  process.exit(1);
}
const check = (cond, msg) => { if (!cond) throw new Error(msg); };

const argv = process.argv.slice(2);
let url = null, waitS = 7, timeoutMs = 60_000;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--url' && argv[i + 1]) url = argv[++i];
  else if (argv[i] === '--wait' && argv[i + 1]) waitS = Number(argv[++i]);
  else if (argv[i] === '--timeout' && argv[i + 1]) timeoutMs = Number(argv[++i]) * 1000;
  else fail(`unknown option ${argv[i]}; usage: ts_oauth_client.mjs [--wait S] [--timeout S] --url URL`);
}
if (!url) fail('--url is required');
setTimeout(() => fail('timed out'), timeoutMs).unref();

const REDIRECT_URI = 'http://127.0.0.1:1/callback';

/** The SDK's OAuthClientProvider, in memory, with the user's part answered programmatically. */
class Provider {
  issued = [];
  code = null;
  _tokens; _client; _verifier;
  get redirectUrl() { return REDIRECT_URI; }
  get clientMetadata() {
    return {
      client_name: 'typescript-sdk-oauth-interop', redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }
  clientInformation() { return this._client; }
  saveClientInformation(info) { this._client = info; }
  tokens() { return this._tokens; }
  saveTokens(tokens) { this._tokens = tokens; this.issued.push(tokens.access_token); }
  saveCodeVerifier(verifier) { this._verifier = verifier; }
  codeVerifier() { return this._verifier; }
  async redirectToAuthorization(authorizationUrl) {
    // The browser: follow redirects, keeping cookies, until the redirect URI.
    const cookies = new Map();
    let next = authorizationUrl.toString();
    for (let i = 0; i < 10; i++) {
      const headers = cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
      const response = await fetch(next, { redirect: 'manual', headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`HTTP ${response.status} without redirect at ${next}`);
      const target = new URL(location, next).toString();
      if (target.startsWith(REDIRECT_URI)) {
        this.code = new URL(target).searchParams.get('code');
        return;
      }
      next = target;
    }
    throw new Error('too many redirects');
  }
}

const provider = new Provider();
const connect = async () => {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const client = new Client({ name: 'mcp-interop-ts-oauth', version: '1' });
  await client.connect(transport);
  return client;
};

try {
  let client;
  try {
    client = await connect();
  } catch (e) {
    if (!(e instanceof UnauthorizedError) || !provider.code) throw e;
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await transport.finishAuth(provider.code);
    client = await connect();
  }
  const first = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
  check(!first.isError && first.structuredContent?.sum === 42, `add: ${JSON.stringify(first)}`);
  await new Promise((r) => setTimeout(r, waitS * 1000));
  const again = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
  check(!again.isError && again.structuredContent?.sum === 42, `add again: ${JSON.stringify(again)}`);
  const me = await client.callTool({ name: 'whoami', arguments: {} });
  check(me.structuredContent?.subject === 'alice', `whoami: ${JSON.stringify(me.structuredContent)}`);
  const refreshed = new Set(provider.issued).size >= 2;
  check(refreshed, `the token was not refreshed: ${provider.issued.length} issued`);
  await client.close();
  console.log(JSON.stringify({ client: 'typescript-sdk-oauth', ok: true, subject: 'alice', tokens: provider.issued.length, refreshed }));
  process.exit(0);
} catch (e) {
  fail(e?.stack ?? String(e));
}
