#!/usr/bin/env node
// Interop fixture: a small MCP server written with the official TypeScript SDK 1.32.x
// (McpServer + StdioServerTransport / StreamableHTTPServerTransport; legacy era only:
// `initialize`, protocol 2024-10-07 .. 2025-11-25; this SDK knows nothing of 2026-07-28).
//
// Usage: node ts_server.mjs                 serve stdio (exits on stdin EOF, after in-flight calls finish;
//                                           or on SIGTERM/SIGINT)
//        node ts_server.mjs --http PORT     serve Streamable HTTP on http://127.0.0.1:PORT/mcp (stateful,
//                                           Mcp-Session-Id); PORT 0 picks a free port. When ready, prints
//                                           "listening on http://127.0.0.1:PORT/mcp" (the real port) to stderr.
//        add --json to answer POSTs with application/json instead of SSE (enableJsonResponse).
//
// Tools:
//   echo(text: string)        -> text content `text`
//   add(a: int, b: int)       -> structuredContent {"sum": a+b} (outputSchema), plus the JSON as text content
//   slow_progress(steps: int) -> notifications/progress 1..steps (total=steps) if the call carries
//                                _meta.progressToken, then text "done"
// Logs go to stderr only. The SDK (and zod, its dependency) is loaded from the npm folder setup.sh
// made: $MCP_INTEROP_NODE_DIR, else ${TARGET:-<repo>/target/interop}/node.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.MCP_INTEROP_NODE_DIR
  ?? join(process.env.TARGET ?? resolve(here, '../../target/interop'), 'node');
const log = (msg) => console.error(`ts_server: ${msg}`);
const usage = 'usage: ts_server.mjs [--http PORT [--json]]';

function die(msg) {
  log(`FATAL: ${msg}`);
  process.exit(1);
}

// Arguments: [--http PORT] [--json]
const argv = process.argv.slice(2);
let httpPort = null;
let jsonResponse = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--http' && /^\d+$/.test(argv[i + 1] ?? '')) httpPort = Number(argv[++i]);
  else if (argv[i] === '--json') jsonResponse = true;
  else die(`bad argument ${argv[i]}; ${usage}`);
}
if (jsonResponse && httpPort === null) die(`--json needs --http; ${usage}`);

let sdk;
try {
  const require = createRequire(join(nodeDir, 'package.json'));
  sdk = {
    // package.json is not in the SDK's exports map: read it from disk.
    version: JSON.parse(readFileSync(join(nodeDir, 'node_modules/@modelcontextprotocol/sdk/package.json'))).version,
    ...require('@modelcontextprotocol/sdk/server/mcp.js'),
    ...require('@modelcontextprotocol/sdk/server/stdio.js'),
    ...require('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ...require('@modelcontextprotocol/sdk/types.js'),
    z: require('zod').z, // zod comes with the SDK (a dependency of @modelcontextprotocol/sdk)
  };
} catch (e) {
  die(`cannot load @modelcontextprotocol/sdk / zod from ${nodeDir} (run tests/interop/setup.sh): ${e.message}`);
}
const { z } = sdk;

// One McpServer per connection: an McpServer (its Protocol) serves a single transport.
function makeServer() {
  const server = new sdk.McpServer({ name: 'mcp-interop-ts-server', version: sdk.version });

  server.registerTool('echo', {
    description: 'Echo the text back as text content.',
    inputSchema: { text: z.string() },
  }, async ({ text }) => ({ content: [{ type: 'text', text }] }));

  server.registerTool('add', {
    description: 'Add two integers; structured output {sum}.',
    inputSchema: { a: z.number().int(), b: z.number().int() },
    outputSchema: { sum: z.number().int() },
  }, async ({ a, b }) => {
    const out = { sum: a + b };
    return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
  });

  server.registerTool('slow_progress', {
    description: "Report progress steps times (1..steps of steps), then return 'done'.",
    inputSchema: { steps: z.number().int().min(0) },
  }, async ({ steps }, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (progressToken !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: i, total: steps, message: `step ${i}/${steps}` },
        });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });

  return server;
}

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));

if (httpPort === null) {
  // stdio. The SDK's transport ignores stdin 'end'; with stdin at EOF nothing keeps the event loop
  // alive but in-flight calls, so node exits by itself once they finish (the unref'd timer caps that).
  const server = makeServer();
  await server.connect(new sdk.StdioServerTransport());
  process.stdin.on('end', () => setTimeout(() => process.exit(0), 5_000).unref());
} else {
  const sessions = new Map(); // Mcp-Session-Id -> StreamableHTTPServerTransport
  let allowedHosts = [];

  const jsonError = (res, status, code, message) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
  };

  async function readJson(req) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }

  async function handle(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return jsonError(res, 404, -32600, `not found: ${url.pathname} (use /mcp)`);
    const sid = req.headers['mcp-session-id'];

    let body;
    if (req.method === 'POST') {
      try {
        body = await readJson(req);
      } catch (e) {
        return jsonError(res, 400, -32700, `Parse error: ${e.message}`);
      }
    }

    let transport;
    if (sid !== undefined) {
      transport = sessions.get(sid);
      if (!transport) return jsonError(res, 404, -32001, 'Session not found');
    } else if (req.method === 'POST' && sdk.isInitializeRequest(body)) {
      transport = new sdk.StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: jsonResponse,
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => { sessions.set(id, transport); log(`session ${id} opened`); },
        onsessionclosed: (id) => { log(`session ${id} closed`); },
      });
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
      await makeServer().connect(transport);
    } else {
      return jsonError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header (send initialize first)');
    }
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`error handling ${req.method} ${req.url}: ${e.stack ?? e}`);
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });
  http.on('error', (e) => die(`http server: ${e.message}`));
  http.listen(httpPort, '127.0.0.1', () => {
    const { port } = http.address();
    allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    console.error(`listening on http://127.0.0.1:${port}/mcp`);
  });
}
