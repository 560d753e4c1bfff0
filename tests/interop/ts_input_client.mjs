#!/usr/bin/env node
// Interop check: the official TypeScript SDK 1.32.x client (legacy era, StreamableHTTPClientTransport)
// calls the tools of `interop-server` that report progress and ask for input.
//
// Usage: node ts_input_client.mjs --url URL [--timeout S]
//
// Lists tools (needs count and survey); calls count {"steps": 5} with onprogress (expects progress
// 1..5 and text "counted 5"); calls survey {} with an elicitation handler that answers "Ada" and
// "teal": the server's elicitation/create requests arrive on the POST's event stream and the SDK
// POSTs the answers (expects text ending "Ada likes teal" and two questions). Ends the session
// with DELETE. Prints one JSON summary line and exits 0; prints "ts_input_client: FAIL: ..." and
// exits 1. The SDK is loaded like ts_client.mjs does ($MCP_INTEROP_NODE_DIR or target/interop/node).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.MCP_INTEROP_NODE_DIR
  ?? join(process.env.TARGET ?? resolve(here, '../../target/interop'), 'node');

function fail(msg) {
  console.error(`ts_input_client: FAIL: ${msg}`);
  process.exit(1);
}

const argv = process.argv.slice(2);
let timeoutMs = 30_000;
let url = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--timeout' && argv[i + 1]) timeoutMs = Number(argv[++i]) * 1000;
  else if (argv[i] === '--url' && argv[i + 1]) url = argv[++i];
  else fail(`unknown option ${argv[i]}; usage: ts_input_client.mjs --url URL [--timeout S]`);
}
if (!url || !(timeoutMs > 0)) fail('usage: ts_input_client.mjs --url URL [--timeout S]');

let sdk;
try {
  const require = createRequire(join(nodeDir, 'package.json'));
  sdk = {
    ...require('@modelcontextprotocol/sdk/client/index.js'),
    ...require('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ...require('@modelcontextprotocol/sdk/types.js'),
  };
} catch (e) {
  fail(`cannot load @modelcontextprotocol/sdk from ${nodeDir} (run tests/interop/setup.sh): ${e.message}`);
}

const check = (cond, msg) => { if (!cond) throw new Error(msg); };
const watchdog = setTimeout(() => fail(`timed out after ${timeoutMs / 1000}s`), timeoutMs);

const transport = new sdk.StreamableHTTPClientTransport(new URL(url));
const client = new sdk.Client({ name: 'mcp-interop-ts-input', version: '0' }, { capabilities: { elicitation: {} } });
const questions = [];
client.setRequestHandler(sdk.ElicitRequestSchema, async (request) => {
  const message = request.params.message;
  questions.push(message);
  const content = message.endsWith('What is your name?') ? { name: 'Ada' } : { colour: 'teal' };
  return { action: 'accept', content };
});

try {
  await client.connect(transport, { timeout: timeoutMs });
  const names = (await client.listTools(undefined, { timeout: timeoutMs })).tools.map((t) => t.name);
  check(names.includes('count') && names.includes('survey'), `tools/list: ${JSON.stringify(names)}`);

  const progress = [];
  const count = await client.callTool({ name: 'count', arguments: { steps: 5 } }, undefined,
    { timeout: timeoutMs, onprogress: (p) => progress.push(p.progress) });
  const countTexts = count.content.filter((c) => c.type === 'text').map((c) => c.text);
  check(!count.isError && isDeepStrictEqual(countTexts, ['counted 5']), `count: ${JSON.stringify(count.content)}`);
  check(isDeepStrictEqual(progress, [1, 2, 3, 4, 5]), `progress ${JSON.stringify(progress)}`);

  const survey = await client.callTool({ name: 'survey', arguments: {} }, undefined, { timeout: timeoutMs });
  const surveyTexts = survey.content.filter((c) => c.type === 'text').map((c) => c.text);
  check(!survey.isError && surveyTexts.length === 1 && surveyTexts[0].endsWith('Ada likes teal'),
    `survey: ${JSON.stringify(survey.content)}`);
  check(questions.length === 2, `questions asked: ${JSON.stringify(questions)}`);

  await transport.terminateSession();
  console.log(JSON.stringify({
    client: 'typescript-sdk', ok: true, transport: 'http', progress, questions, survey: surveyTexts[0],
  }));
} catch (e) {
  fail(e?.message ?? String(e));
}
await client.close();
clearTimeout(watchdog);
