#!/usr/bin/env node
// Interop check: the official TypeScript SDK 1.32.x client (legacy era: initialize) is told that a
// server's tools changed.
//
// Usage: node ts_live_client.mjs [--timeout S] -- COMMAND [ARGS...]
//        node ts_live_client.mjs [--timeout S] --url URL
//
// Drives `live-server` (examples/src/bin/live-server.rs), whose `add_tool(name)` adds a tool at run
// time, over stdio (spawning COMMAND) or Streamable HTTP (URL). The server sends
// notifications/tools/list_changed on its own: over stdio on the connection, over HTTP on the
// session's standalone GET stream. The SDK opens that stream after the handshake without saying
// when it is open, and a change made before is not seen: a change that went unannounced is retried
// with a new name, a few times. After the notification the client lists the tools (the new one must
// be there) and calls it. Over HTTP it also records what the SDK reported as errors (a refused GET
// stream would show there). Prints one JSON summary line and exits 0; prints
// "ts_live_client: FAIL: ..." and exits 1.
// The SDK is loaded from the npm folder setup.sh made: $MCP_INTEROP_NODE_DIR, else
// ${TARGET:-<repo>/target/interop}/node.
import { isDeepStrictEqual } from 'node:util';

import { check, failer, loadClientSdk } from './ts_sdk.mjs';

// How many changes may go unseen while the HTTP GET stream opens, and how long each waits.
const ATTEMPTS = 5;
const WAIT_MS = 2_000;

const fail = failer('ts_live_client');

const usage = 'usage: ts_live_client.mjs [--timeout S] (-- COMMAND [ARGS...] | --url URL)';
const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const opts = sep < 0 ? argv : argv.slice(0, sep);
const command = sep < 0 ? [] : argv.slice(sep + 1);
let timeoutMs = 60_000;
let url = null;
for (let i = 0; i < opts.length; i++) {
  if (opts[i] === '--timeout' && opts[i + 1]) timeoutMs = Number(opts[++i]) * 1000;
  else if (opts[i] === '--url' && opts[i + 1]) url = opts[++i];
  else fail(`unknown option ${opts[i]}; ${usage}`);
}
if ((command.length === 0) === (url === null) || !(timeoutMs > 0)) fail(usage);

const sdk = loadClientSdk(fail);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const transport = url
  ? new sdk.StreamableHTTPClientTransport(new URL(url))
  : new sdk.StdioClientTransport({ command: command[0], args: command.slice(1), env: { ...process.env } });
const client = new sdk.Client({ name: 'mcp-interop-ts-live', version: sdk.version });
const req = { timeout: timeoutMs };

const errors = [];
client.onerror = (e) => errors.push(e?.message ?? String(e));
let told = 0;
client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => { told += 1; });

const watchdog = setTimeout(async () => {
  console.error(`ts_live_client: FAIL: timed out after ${timeoutMs / 1000}s`);
  await client.close().catch(() => {});
  process.exit(1);
}, timeoutMs);

try {
  await client.connect(transport, req);
  const capabilities = client.getServerCapabilities();
  check(capabilities?.tools?.listChanged === true, `tools.listChanged not declared: ${JSON.stringify(capabilities)}`);
  const before = (await client.listTools(undefined, req)).tools.map((t) => t.name);

  let added = null;
  for (let attempt = 1; attempt <= ATTEMPTS && added === null; attempt++) {
    const name = `added_${process.pid}_${attempt}`;
    const result = await client.callTool({ name: 'add_tool', arguments: { name } }, undefined, req);
    check(!result.isError, `add_tool ${name} returned isError: ${JSON.stringify(result.content)}`);
    for (let waited = 0; waited < WAIT_MS && told === 0; waited += 50) await sleep(50);
    if (told > 0) added = name;
  }
  check(added !== null, `no notifications/tools/list_changed after ${ATTEMPTS} tools were added; errors: ${JSON.stringify(errors)}`);

  const names = (await client.listTools(undefined, req)).tools.map((t) => t.name);
  check(names.includes(added), `tools/list lacks the new tool ${added}: ${JSON.stringify(names)}`);
  const greeting = await client.callTool({ name: added, arguments: {} }, undefined, req);
  const texts = greeting.content.filter((c) => c.type === 'text').map((c) => c.text);
  check(isDeepStrictEqual(texts, [`hello from ${added}`]), `${added} answered ${JSON.stringify(texts)}`);

  if (url) await transport.terminateSession();
  console.log(JSON.stringify({
    client: `typescript-sdk-${sdk.version}`, ok: true, transport: url ? 'http' : 'stdio',
    added, told, before: before.sort(), tools: names.sort(), errors,
  }));
} catch (e) {
  console.error(`ts_live_client: FAIL: ${e?.message ?? String(e)}`);
  await client.close().catch(() => {});
  process.exit(1);
}
clearTimeout(watchdog);
await client.close();
