#!/usr/bin/env node
// Interop check: drive an MCP server with the official TypeScript SDK 1.32.x
// (Client + StdioClientTransport or StreamableHTTPClientTransport; legacy era:
// initialize / notifications/initialized).
//
// Usage: node ts_client.mjs [--timeout S] -- COMMAND [ARGS...]
//        node ts_client.mjs [--timeout S] [--bearer TOKEN] --url URL
//
// --bearer TOKEN sends `Authorization: Bearer TOKEN` on every HTTP request (the SDK's way for a
// static token: requestInit headers), for a server protected with OAuth.
//
// Spawns COMMAND and talks stdio, or connects to the Streamable HTTP endpoint URL (then also
// requires an Mcp-Session-Id and ends the session with DELETE); lists tools (needs `echo` and `add`), calls echo {"text": "hello"}
// (expects text "hello") and add {"a": 2, "b": 40} (expects structuredContent {"sum": 42}).
// Prints one JSON summary line and exits 0; prints "ts_client: FAIL: ..." and exits 1.
// The SDK is loaded from the npm folder setup.sh made: $MCP_INTEROP_NODE_DIR, else
// ${TARGET:-<repo>/target/interop}/node.
import { isDeepStrictEqual } from 'node:util';

import { check, failer, loadClientSdk } from './ts_sdk.mjs';

const fail = failer('ts_client');

// Arguments: [--timeout S] -- COMMAND [ARGS...]  |  [--timeout S] --url URL
const usage = 'usage: ts_client.mjs [--timeout S] (-- COMMAND [ARGS...] | --url URL)';
const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const opts = sep < 0 ? argv : argv.slice(0, sep);
const command = sep < 0 ? [] : argv.slice(sep + 1);
let timeoutMs = 30_000;
let url = null;
let bearer = null;
for (let i = 0; i < opts.length; i++) {
  if (opts[i] === '--timeout' && opts[i + 1]) timeoutMs = Number(opts[++i]) * 1000;
  else if (opts[i] === '--url' && opts[i + 1]) url = opts[++i];
  else if (opts[i] === '--bearer' && opts[i + 1]) bearer = opts[++i];
  else fail(`unknown option ${opts[i]}; ${usage}`);
}
if ((command.length === 0) === (url === null) || !(timeoutMs > 0)) fail(usage);

const sdk = loadClientSdk(fail);


// env: the SDK passes only HOME/LOGNAME/PATH/SHELL/TERM/USER by default; give the server ours.
const transport = url
  ? new sdk.StreamableHTTPClientTransport(new URL(url),
    bearer ? { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } } : undefined)
  : new sdk.StdioClientTransport({ command: command[0], args: command.slice(1), env: { ...process.env } });
// Client.connect hands the negotiated version to transport.setProtocolVersion if the transport has one
// (stdio has none; HTTP's sends it as MCP-Protocol-Version); wrap it to learn the version, since 1.32
// has no getter for it.
let negotiated = null;
const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (v) => { negotiated = v; setProtocolVersion?.(v); };
const client = new sdk.Client({ name: 'mcp-interop-ts', version: sdk.version });
const req = { timeout: timeoutMs };

// Remember the child's pid: on a failed connect the SDK itself starts closing and forgets it.
let childPid;
const start = transport.start.bind(transport);
transport.start = async () => { await start(); childPid = url ? undefined : transport.pid; };
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

// Failure path: close (ends stdin), give the server 2 s to exit, then SIGKILL it; report once.
let dying = false;
async function die(msg) {
  if (dying) return;
  dying = true;
  console.error(`ts_client: FAIL: ${msg}`);
  await client.close().catch(() => {});
  for (let i = 0; i < 20 && childPid && alive(childPid); i++) await new Promise((r) => setTimeout(r, 100));
  if (childPid && alive(childPid)) process.kill(childPid, 'SIGKILL');
  process.exit(1);
}
const watchdog = setTimeout(() => die(`timed out after ${timeoutMs / 1000}s`), timeoutMs);

try {
  await client.connect(transport, req);
  const names = (await client.listTools(undefined, req)).tools.map((t) => t.name);
  check(names.includes('echo') && names.includes('add'), `tools/list lacks echo/add: ${JSON.stringify(names)}`);

  const echo = await client.callTool({ name: 'echo', arguments: { text: 'hello' } }, undefined, req);
  check(!echo.isError, `echo returned isError: ${JSON.stringify(echo.content)}`);
  const texts = echo.content.filter((c) => c.type === 'text').map((c) => c.text);
  check(isDeepStrictEqual(texts, ['hello']), `echo text content ${JSON.stringify(texts)}, expected ["hello"]`);

  const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }, undefined, req);
  check(!add.isError, `add returned isError: ${JSON.stringify(add.content)}`);
  check(isDeepStrictEqual(add.structuredContent, { sum: 42 }), `add structuredContent ${JSON.stringify(add.structuredContent)}`);

  const sessionId = url ? transport.sessionId : undefined;
  if (url) {
    check(typeof sessionId === 'string' && sessionId.length > 0, 'no Mcp-Session-Id after initialize');
    await transport.terminateSession();
    check(transport.sessionId === undefined, 'DELETE did not end the session');
  }

  console.log(JSON.stringify({
    client: `typescript-sdk-${sdk.version}`, ok: true, transport: url ? 'http' : 'stdio', protocolVersion: negotiated,
    server: client.getServerVersion() ?? null, tools: names, echo: texts[0], sum: add.structuredContent.sum,
  }));
} catch (e) {
  await die(e?.message ?? String(e));
}
await client.close();
clearTimeout(watchdog);
