// What the TypeScript interop clients share: where tests/interop/setup.sh put the official SDK
// ($MCP_INTEROP_NODE_DIR, else ${TARGET:-<repo>/target/interop}/node), failing with one
// "NAME: FAIL: why" line and exit 1 (which the Rust tests report), and loading the SDK's client.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const nodeDir = process.env.MCP_INTEROP_NODE_DIR
  ?? join(process.env.TARGET ?? resolve(here, '../../target/interop'), 'node');

/** A `fail(msg)` for the client called `name`: prints why, exits 1. */
export function failer(name) {
  return (msg) => {
    console.error(`${name}: FAIL: ${msg}`);
    process.exit(1);
  };
}

/** Throws `msg` unless `cond`. */
export const check = (cond, msg) => { if (!cond) throw new Error(msg); };

/** The SDK's client, stdio and Streamable HTTP transports and types, with its version; `fail`s
 * when it is not installed. */
export function loadClientSdk(fail) {
  try {
    const require = createRequire(join(nodeDir, 'package.json'));
    return {
      // package.json is not in the SDK's exports map: read it from disk.
      version: JSON.parse(readFileSync(join(nodeDir, 'node_modules/@modelcontextprotocol/sdk/package.json'))).version,
      ...require('@modelcontextprotocol/sdk/client/index.js'),
      ...require('@modelcontextprotocol/sdk/client/stdio.js'),
      ...require('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      ...require('@modelcontextprotocol/sdk/types.js'),
    };
  } catch (e) {
    fail(`cannot load @modelcontextprotocol/sdk from ${nodeDir} (run tests/interop/setup.sh): ${e.message}`);
  }
}
