'use strict';
/**
 * `node scripts/todays-stack.js`: toolwright on today's stack, as a new user gets it. A fresh project
 * installs the packed tarball with the registry's `latest` of every peer by a plain `npm install`
 * (no --legacy-peer-deps, no --force): a peer whose new major falls outside toolwright's
 * peerDependencies fails it here with npm's ERESOLVE. Then, with what npm installed:
 *
 * - the README's Quick example, compiled by the project's own TypeScript (7) with the tsconfig the
 *   README tells users to make (`tsc --init` plus its settings), in a CommonJS and an ES module
 *   folder, and run; beside it, the installed `openai`, `@anthropic-ai/sdk` and `@google/genai`
 *   clients passed to their providers, type-checked in both module kinds;
 * - an AI SDK loop (`generateText` with the SDK's mock model) over toolwright/ai-sdk;
 * - a BullMQ round trip (toolwright/bullmq on the installed ioredis) on the machine's Redis;
 * - an MCP tools/list and tools/call: the SDK's `Client` against toolwright's server, in memory;
 * - a Gemini tool loop: toolwright/gemini over the installed `@google/genai` client, against a local
 *   server that speaks `generateContent`.
 *
 * Needs network access to the registry, Redis on 127.0.0.1:6379, Node 22 or later (`ai` 7) and a
 * built dist/ (`npm run build`). Prints the versions npm chose.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { major } = require('./cached-package');
const { packTarball, providerClients, queueRun, run } = require('./consumer-parts');

const root = path.resolve(__dirname, '..');
/** What a new project installs: the peers at the registry's `latest` (the others at npm's pick). */
const STACK = [
  'typescript@latest', 'ai@latest', 'ioredis@latest', 'bullmq@latest', '@modelcontextprotocol/sdk@latest', '@modelcontextprotocol/server@latest', '@modelcontextprotocol/client@latest',
  '@langchain/core@latest', 'pg@latest', '@google/genai@latest', 'openai@latest', '@anthropic-ai/sdk@latest',
  '@openai/agents@latest', '@nestjs/common@latest', '@nestjs/core@latest', 'inversify@latest', 'reflect-metadata', 'rxjs',
  'class-validator', 'class-transformer', 'zod@latest',
];
const log = (line) => process.stdout.write(`${line}\n`);

if (major(process.version) < 22) throw new Error(`today's stack needs Node 22 or later (ai 7); this is ${process.version}`);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-today-'));
const started = Date.now();
const { tarball } = packTarball(work);
const app = path.join(work, 'app');
fs.mkdirSync(app);
fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'todays-stack', version: '1.0.0', private: true }, null, 2));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const installStarted = Date.now();
const install = spawnSync(npm, ['install', '--no-audit', '--no-fund', tarball, ...STACK], { cwd: app, encoding: 'utf8', shell: process.platform === 'win32' });
const npmOutput = `${install.stdout}${install.stderr}`;
if (install.status !== 0 || /ERESOLVE/.test(npmOutput)) {
  process.stderr.write(npmOutput);
  throw new Error(
    `npm install of toolwright with today's peers failed (exit ${install.status}${/ERESOLVE/.test(npmOutput) ? ', ERESOLVE' : ''}): ` +
      "a peer's latest release is outside toolwright's peerDependencies. Test the new major, then widen the range in package.json.",
  );
}
const installed = (name) => JSON.parse(fs.readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8')).version;
const names = STACK.map((spec) => spec.replace(/(.)@[^@/]*$/, '$1'));
log(`Node ${process.version}, npm install (${((Date.now() - installStarted) / 1000).toFixed(0)} s): ${names.map((name) => `${name} ${installed(name)}`).join(', ')}`);

/** The README's Quick example and its tsconfig settings, as its "Quick example" section gives them. */
function quickExample() {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick example'), readme.indexOf('\n## ', readme.indexOf('## Quick example') + 1));
  const source = /```ts\n([\s\S]*?)```/.exec(section);
  const settings = /```json\n([\s\S]*?)```/.exec(section);
  const commonjs = /CommonJS project[\s\S]*?`("verbatimModuleSyntax": false)`/.exec(section);
  if (source === null || settings === null || commonjs === null) {
    throw new Error("README.md: the Quick example section needs a ```ts block, a ```json block of compilerOptions and the CommonJS project's `\"verbatimModuleSyntax\": false`");
  }
  return { source: source[1], settings: JSON.parse(`{${settings[1]}}`), commonjs: JSON.parse(`{${commonjs[1]}}`) };
}

const quick = quickExample();
const tsc = path.join(app, 'node_modules', 'typescript', 'bin', 'tsc');
for (const kind of ['commonjs', 'module']) {
  const dir = path.join(app, `quick-${kind}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: kind }));
  run(process.execPath, [tsc, '--init'], dir);
  const tsconfig = path.join(dir, 'tsconfig.json');
  const init = fs.readFileSync(tsconfig, 'utf8');
  if (!init.includes('"compilerOptions": {')) throw new Error(`tsc --init wrote an unexpected tsconfig.json:\n${init}`);
  const added = { ...quick.settings, ...(kind === 'commonjs' ? quick.commonjs : {}) };
  let edited = init;
  for (const [key, value] of Object.entries(added)) {
    // an option `tsc --init` set (a line that is not a comment) gets the new value; another is added
    const set = new RegExp(`^(\\s*)${JSON.stringify(key)}:[^,\\n]*`, 'm');
    const line = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    edited = set.test(edited) ? edited.replace(set, `$1${line}`) : edited.replace('"compilerOptions": {', `"compilerOptions": {\n    ${line},`);
  }
  fs.writeFileSync(tsconfig, edited);
  fs.writeFileSync(path.join(dir, 'index.ts'), quick.source);
  // compiled beside it: each vendor's client, of the build this module kind imports, fits its provider
  fs.writeFileSync(path.join(dir, 'providers.ts'), providerClients);
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  if (compiled.status !== 0) throw new Error(`the README's Quick example (${kind}) does not compile with TypeScript ${installed('typescript')}:\n${compiled.stdout}${compiled.stderr}`);
  const printed = run(process.execPath, ['index.js'], dir);
  if (printed !== 'Paris: 18 °C, cloudy\n') throw new Error(`the README's Quick example (${kind}) printed ${JSON.stringify(printed)}`);
  log(`README Quick example (${kind === 'module' ? 'ES module' : 'CommonJS'}): compiled by TypeScript ${installed('typescript')} with tsc --init + ${Object.keys(added).join(', ')}, ran; the OpenAI, Anthropic and Gemini clients fit their providers`);
}

const tool = `{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, execute: (a) => 'sunny in ' + a.city }`;
// An AI SDK loop: the mock model calls the tool (once with a wrong type, once right), then answers with what it got.
const aiLoop = `
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Toolkit } from 'toolwright';
import { toAiSdkTools } from 'toolwright/ai-sdk';
const toolkit = new Toolkit();
toolkit.registerTool(${tool});
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
let turn = 0;
const model = new MockLanguageModelV4({
  doGenerate: async (options) => {
    turn++;
    if (turn === 1) return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":1}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    if (turn === 2) return { content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":"Paris"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    const results = options.prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).map((p) => JSON.stringify(p.output));
    return { content: [{ type: 'text', text: results.join(' | ') }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
  },
});
const result = await generateText({ model, tools: toAiSdkTools(toolkit), stopWhen: stepCountIs(5), prompt: 'Weather in Paris?' });
if (!result.text.includes('sunny in Paris') || !result.text.includes('city')) throw new Error('ai-sdk loop: ' + result.text);
process.stdout.write('ok\\n');
`;
// MCP: the SDK's Client lists and calls the tools of toolwright's server over the SDK's in-memory transport.
const mcp = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Toolkit } from 'toolwright';
import { createMcpServer } from 'toolwright/mcp';
const toolkit = new Toolkit();
toolkit.registerTool(${tool});
const server = createMcpServer(toolkit, { name: 'today', version: '1.0.0' });
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'today-client', version: '1.0.0' });
await client.connect(clientSide);
const { tools } = await client.listTools();
const ok = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
const bad = await client.callTool({ name: 'get_weather', arguments: { city: 1 } });
if (tools.map((t) => t.name).join() !== 'get_weather' || ok.content[0].text !== 'sunny in Paris' || bad.isError !== true) throw new Error('mcp: ' + JSON.stringify([tools, ok, bad]));
await client.close();
await server.close();
process.stdout.write('ok\\n');
`;
// Gemini: the installed @google/genai client against a local server speaking generateContent; the
// model calls the tool, then answers with the function response it got.
const gemini = `
import { createServer } from 'node:http';
import { GoogleGenAI } from '@google/genai';
import { Toolkit, runToolLoop } from 'toolwright';
import { GeminiProvider } from 'toolwright/gemini';
const toolkit = new Toolkit();
toolkit.registerTool(${tool});
const bodies = [];
const server = createServer(async (req, res) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  bodies.push(JSON.parse(text));
  const parts = bodies.length === 1
    ? [{ functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } } }]
    : [{ text: JSON.stringify(bodies[1].contents[2].parts[0].functionResponse) }];
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: 'http://127.0.0.1:' + server.address().port } });
const result = await runToolLoop({ provider: new GeminiProvider(client), model: 'gemini-test', toolkit }, [{ role: 'user', content: 'Weather in Paris?' }]);
server.close();
const declared = bodies[0].tools[0].functionDeclarations[0];
if (declared.name !== 'get_weather' || !result.content.includes('"id":"fc_1"') || !result.content.includes('sunny in Paris')) throw new Error('gemini: ' + JSON.stringify([declared, result.content]));
process.stdout.write('ok\\n');
`;
const checks = {
  'AI SDK loop (toolwright/ai-sdk, MockLanguageModelV4)': ['ai-loop.mjs', aiLoop],
  [`BullMQ round trip (toolwright/bullmq, ioredis ${installed('ioredis')}, Redis 127.0.0.1:6379)`]: ['queue.mjs', queueRun("import * as tw from 'toolwright'; import * as bullmq from 'toolwright/bullmq';")],
  'MCP tools/list and tools/call (SDK Client, toolwright server, in memory)': ['mcp.mjs', mcp],
  [`Gemini tool loop (toolwright/gemini, @google/genai ${installed('@google/genai')}, local generateContent server)`]: ['gemini.mjs', gemini],
};
for (const [label, [file, source]] of Object.entries(checks)) {
  fs.writeFileSync(path.join(app, file), source);
  const out = spawnSync(process.execPath, [file], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  if (out.status !== 0 || out.stdout.trim() !== 'ok') throw new Error(`${label} failed (exit ${out.status}):\n${out.stdout}${out.stderr}`);
  log(`${label}: ok`);
}
fs.rmSync(work, { recursive: true, force: true });
log(`today's stack passed on Node ${process.version} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
