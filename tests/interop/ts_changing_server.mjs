#!/usr/bin/env node
// Host fixture: an MCP server written with the official TypeScript SDK 1.32.x (McpServer over stdio,
// legacy era only) whose tool list changes.
//
// Usage: node ts_changing_server.mjs     serve stdio (exits on stdin EOF)
//
// Tools:
//   add_tool(name: string) -> registers a tool `name` answering "I am NAME"; the SDK then sends
//                             notifications/tools/list_changed on its own.
//   remove_tool(name: string) -> removes a tool add_tool registered; the SDK announces it too.
// The SDK (and zod) are loaded from the npm folder setup.sh made: $MCP_INTEROP_NODE_DIR, else
// ${TARGET:-<repo>/target/interop}/node.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.MCP_INTEROP_NODE_DIR
  ?? join(process.env.TARGET ?? resolve(here, '../../target/interop'), 'node');
const require = createRequire(join(nodeDir, 'package.json'));
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const server = new McpServer({ name: 'mcp-host-changing-ts-server', version: '0.1.0' });

// The tools add_tool registered, by name.
const added = new Map();

server.registerTool(
  'add_tool',
  { description: 'Registers a tool called `name`.', inputSchema: { name: z.string() } },
  async ({ name }) => {
    const tool = server.registerTool(name, { description: `Added at run time as ${name}.` }, async () => ({
      content: [{ type: 'text', text: `I am ${name}` }],
    }));
    added.set(name, tool);
    return { content: [{ type: 'text', text: `added ${name}` }] };
  },
);

server.registerTool(
  'remove_tool',
  { description: 'Removes a tool add_tool registered.', inputSchema: { name: z.string() } },
  async ({ name }) => {
    const tool = added.get(name);
    if (tool === undefined) {
      return { content: [{ type: 'text', text: `no tool ${name}` }], isError: true };
    }
    tool.remove();
    added.delete(name);
    return { content: [{ type: 'text', text: `removed ${name}` }] };
  },
);

await server.connect(new StdioServerTransport());
