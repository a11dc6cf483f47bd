'use strict';
// Packs toolwright with `npm pack` and uses the tarball as a user would: a fresh CommonJS project,
// a fresh ESM project, TypeScript (nodenext, skipLibCheck off) projects of both module kinds that
// type-check against the shipped types and run an MCP round trip with the SDK's own `Client` (its
// CommonJS build in one, its ES module build in the other), and a CommonJS project without the
// optional peers of toolwright/build (typescript, typescript-json-schema). Dependencies are linked
// from this repo's node_modules so the check needs no network.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-pack-'));
const { packTarball, providerClients, queueRun, run } = require('./consumer-parts');

const { shipped } = packTarball(work);
for (const required of ['dist/index.js', 'dist/index.d.ts', 'dist/build/toolwright-schema-cli.js', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
  if (!fs.existsSync(path.join(shipped, required))) throw new Error(`the package lacks ${required}`);
}
// one rolled-up declaration file per entry point (scripts/rollup-types.js), not one per module
const manifest = JSON.parse(fs.readFileSync(path.join(shipped, 'package.json'), 'utf8'));
const declared = Object.values(manifest.exports).flatMap((target) => (typeof target === 'object' ? [target.types, target.import?.types] : [])).filter((file) => file !== undefined);
const declarations = fs.readdirSync(path.join(shipped, 'dist'), { recursive: true }).filter((name) => /\.d\.[mc]?ts$/.test(name)).map((name) => `./dist/${name}`);
if (declarations.sort().join() !== [...new Set(declared)].sort().join() || declarations.length > 20) {
  throw new Error(`the package ships ${declarations.length} declaration files (${declarations.join(', ')}); package.json \`exports\` names ${declared.length}`);
}
// the documentation site's sources and build (docs/, site/) stay out of the package
for (const unwanted of ['docs', 'site']) {
  if (fs.existsSync(path.join(shipped, unwanted))) throw new Error(`the package ships ${unwanted}/: keep it out of package.json "files"`);
}

function project(name, type, files, without = []) {
  const dir = path.join(work, name);
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '.bin' || entry === 'toolwright' || entry.startsWith('.') || without.includes(entry)) continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  fs.cpSync(shipped, path.join(modules, 'toolwright'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

const usage = (load) => `
${load}
const { Tool, ToolParam, ToolService, Toolkit, toolResult, ToolkitError } = tw;
class Weather { getWeather(city) { return 'sunny in ' + city; } }
ToolService({ group: 'weather' })(Weather);
ToolParam({ name: 'city', description: 'City' })(Weather.prototype, 'getWeather', 0);
const descriptor = Object.getOwnPropertyDescriptor(Weather.prototype, 'getWeather');
Tool({ name: 'get_weather', description: 'Weather' })(Weather.prototype, 'getWeather', descriptor);
Reflect.defineMetadata('design:paramtypes', [String], Weather.prototype, 'getWeather');
const toolkit = new Toolkit();
toolkit.registerTool(Weather);
toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } } }, execute: (a) => toolResult(String(a.text)) });
(async () => {
  const r = await toolkit.callTool({ id: '1', name: 'get_weather', arguments: '{"city":"Paris"}' });
  const e = await toolkit.callTool({ id: '2', name: 'get_weather', arguments: '{"city":1}' });
  if (r.forLLM !== 'sunny in Paris' || e.error.code !== 'INVALID_ARGUMENTS') throw new Error('unexpected ' + JSON.stringify([r, e]));
  if (toolkit.toProviderDefs('openai', { strict: true }).length !== 2) throw new Error('defs');
  if (typeof ToolkitError.is !== 'function') throw new Error('ToolkitError');
  const { Container } = await import('inversify');
  const container = new Container();
  await container.load(tw.toolwrightModule({ services: [Weather] }));
  const viaModule = container.get(tw.Toolkit);
  if (container.get(tw.Toolkit) !== viaModule || (await viaModule.callTool({ id: '3', name: 'get_weather', arguments: { city: 'Rome' } })).forLLM !== 'sunny in Rome') throw new Error('toolwrightModule');
  for (const sub of ['toolwright/openai', 'toolwright/anthropic', 'toolwright/gemini', 'toolwright/mcp', 'toolwright/otel', 'toolwright/build', 'toolwright/langchain', 'toolwright/openai-agents', 'toolwright/ai-sdk', 'toolwright/nestjs', 'toolwright/bullmq', 'toolwright/redis', 'toolwright/postgres', 'toolwright/testing']) await import(sub);
  const [lc] = (await import('toolwright/langchain')).toLangChainTools(toolkit);
  const m = await lc.invoke({ id: 'c1', name: lc.name, args: { city: 1 }, type: 'tool_call' });
  if (m.tool_call_id !== 'c1' || m.status !== 'error' || m.artifact.error.code !== 'INVALID_ARGUMENTS') throw new Error('langchain ' + JSON.stringify(m));
  const aiSdk = await (await import('toolwright/ai-sdk')).toAiSdkTools(toolkit, { preliminaryResults: false }).echo.execute({ text: 'hi' }, { toolCallId: 'c1', messages: [] });
  if (aiSdk.forLLM !== 'hi') throw new Error('toolwright/ai-sdk: ' + JSON.stringify(aiSdk));
  process.stdout.write('ok\\n');
})().catch((e) => { console.error(e); process.exit(1); });
`;

// An Agents SDK run whose model sends non-object arguments: they must reach toolwright (its message,
// not an approval interruption), which needs the tools built for the SDK build the consumer loads.
const agentsRun = (load) => `
${load}
class Model { constructor() { this.n = 0; } async getResponse(req) {
  const output = this.n++ === 0
    ? [{ type: 'function_call', name: 'echo', callId: 'c1', status: 'completed', arguments: '[1]' }]
    : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: req.input.at(-1).output.text }] }];
  return { usage: new sdk.Usage(), output }; } async *getStreamedResponse() {} }
sdk.setTracingDisabled(true);
const toolkit = new tw.Toolkit();
toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: {} }, execute: () => 'echoed' });
new sdk.Runner().run(new sdk.Agent({ name: 'a', model: new Model(), tools: agents.toOpenAIAgentsTools(toolkit) }), 'go').then((r) => {
  if (!String(r.finalOutput).startsWith("Arguments for tool 'echo' must be a JSON object")) throw new Error('agents: ' + r.finalOutput);
  process.stdout.write('ok\\n');
}).catch((e) => { console.error(e); process.exit(1); });
`;
// A Nest application context booted with ToolwrightModule: the Toolkit the application gets and the
// DiscoveryService toolwright injects must be those of the consumer's own toolwright and Nest (Nest 12
// is an ES module: the CommonJS entry point loads the instance the ES module consumer imports).
const nestRun = (load) => `
${load}
class Greeter { hello(city) { return 'hello ' + city; } }
common.Injectable()(Greeter);
class GreetTools { constructor(greeter) { this.greeter = greeter; } greet(city, apiKey) { return this.greeter.hello(city) + (apiKey === 'k-123456' ? '' : ' without key'); } }
common.Injectable()(GreetTools);
common.Inject(Greeter)(GreetTools, undefined, 0);
tw.ToolParam({ name: 'city' })(GreetTools.prototype, 'greet', 0);
tw.ToolParam({ name: 'apiKey' })(GreetTools.prototype, 'greet', 1);
tw.Tool({ name: 'greet', description: 'Greet a city' })(GreetTools.prototype, 'greet', Object.getOwnPropertyDescriptor(GreetTools.prototype, 'greet'));
Reflect.defineMetadata('design:paramtypes', [String, String], GreetTools.prototype, 'greet');
class AppModule {}
common.Module({ imports: [nestjs.ToolwrightModule.forRoot({ presets: { greet: { apiKey: 'k-123456' } } })], providers: [Greeter, GreetTools] })(AppModule);
core.NestFactory.createApplicationContext(AppModule, { logger: false }).then(async (app) => {
  const toolkit = app.get(tw.Toolkit);
  const r = await toolkit.callTool({ id: '1', name: 'greet', arguments: { city: 'Paris' } });
  const schema = JSON.stringify(toolkit.getToolSchemas());
  if (r.forLLM !== 'hello Paris' || schema.includes('apiKey')) throw new Error('nestjs: ' + JSON.stringify([r, schema]));
  await app.close();
  process.stdout.write('ok\\n');
}).catch((e) => { console.error(e); process.exit(1); });
`;
const cjs = project('consumer-cjs', 'commonjs', {
  'queue.js': queueRun("const tw = require('toolwright'); const bullmq = require('toolwright/bullmq');"),
  'index.js': usage("const tw = require('toolwright');"),
  'agents.js': agentsRun("const tw = require('toolwright'); const agents = require('toolwright/openai-agents'); const sdk = require('@openai/agents');"),
  'nest.js': nestRun("require('reflect-metadata'); const tw = require('toolwright'); const nestjs = require('toolwright/nestjs'); const common = require('@nestjs/common'); const core = require('@nestjs/core');"),
});
const esm = project('consumer-esm', 'module', {
  'queue.mjs': queueRun("import * as tw from 'toolwright'; import * as bullmq from 'toolwright/bullmq';"),
  'index.mjs': usage("import * as tw from 'toolwright';"),
  'agents.mjs': agentsRun("import * as tw from 'toolwright'; import * as agents from 'toolwright/openai-agents'; import * as sdk from '@openai/agents';"),
  'nest.mjs': nestRun("import 'reflect-metadata'; import * as tw from 'toolwright'; import * as nestjs from 'toolwright/nestjs'; import * as common from '@nestjs/common'; import * as core from '@nestjs/core';"),
});
for (const [dir, file] of [[cjs, 'index.js'], [esm, 'index.mjs'], [cjs, 'agents.js'], [esm, 'agents.mjs'], [cjs, 'nest.js'], [esm, 'nest.mjs'], [cjs, 'queue.js'], [esm, 'queue.mjs']]) {
  const out = run(process.execPath, [file], dir).trim();
  if (out !== 'ok') throw new Error(`${dir}/${file}: ${out}`);
}

// An MCP round trip as a TypeScript user writes it, the same source compiled as CommonJS and as an
// ES module: each gets the SDK's `Client` (and schemas, transports) of its own build, which
// importMcpTools, createMcpServer's connect and its `server` must accept.
const mcpRoundTrip = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListPromptsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Toolkit, toolResult, type AgentTool } from 'toolwright';
import { createMcpServer, importMcpTools } from 'toolwright/mcp';

function echo(name: string): AgentTool {
  return {
    name,
    description: 'Echo the text',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: (args) => toolResult(name + ':' + String(args.text)),
  };
}

async function main(): Promise<void> {
  const served = new Toolkit();
  served.createToolGroup('extra', 'Extra tools', false);
  served.registerTool(echo('echo'));
  served.registerTool(echo('shout'), { group: 'extra' });
  const mcp = createMcpServer(served, { name: 'served', version: '1.0.0' });
  // a handler of the consumer's own SDK build on toolwright's server
  mcp.server.registerCapabilities({ prompts: {} });
  mcp.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: 'greet' }] }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'consumer', version: '1.0.0' });
  await client.connect(clientSide);
  const prompts = await client.listPrompts();
  if (prompts.prompts[0]?.name !== 'greet') throw new Error('prompts/list: ' + JSON.stringify(prompts));

  const toolkit = new Toolkit();
  const imported = await importMcpTools(client, toolkit, { prefix: 'remote', filter: (tool: Tool) => tool.name !== 'hidden' });
  const result = await toolkit.callTool({ id: '1', name: 'remote_echo', arguments: { text: 'hi' } });
  if (result.forLLM !== 'echo:hi') throw new Error('remote_echo: ' + JSON.stringify(result));
  // the served toolkit's list_changed reaches the import through the client's notification handler
  served.updateToolGroups(['extra'], true);
  for (const deadline = Date.now() + 10_000; toolkit.getTool('remote_shout') === undefined; ) {
    if (Date.now() > deadline) throw new Error('list_changed did not bring remote_shout');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await imported.close();
  await client.close();
  await mcp.close();
  process.stdout.write('ok\\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

// The same through the MCP SDK 2 (@modelcontextprotocol/client and /server): importMcpTools takes
// its Client, of the CommonJS or the ES module build.
const mcp2RoundTrip = `
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Toolkit } from 'toolwright';
import { importMcpTools } from 'toolwright/mcp';

async function main(): Promise<void> {
  const server = new McpServer({ name: 'sdk2', version: '1.0.0' });
  server.registerTool('shout', { description: 'Upper-cases', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'consumer', version: '1.0.0' });
  await client.connect(clientSide);
  const toolkit = new Toolkit();
  const imported = await importMcpTools(client, toolkit, { prefix: 'remote' });
  const result = await toolkit.callTool({ id: '1', name: 'remote_shout', arguments: { text: 'hi' } });
  if (result.forLLM !== 'HI' || imported.report.protocolVersion === undefined) throw new Error('remote_shout: ' + JSON.stringify([result, imported.report]));
  await imported.close();
  await client.close();
  await server.close();
  process.stdout.write('ok\\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

/** TypeScript options of a strict nodenext project that checks the libraries' types too. */
const tsOptions = (extra) => ({
  target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: false, ...extra,
});

const ts = project('consumer-ts', 'commonjs', {
  'tsconfig.json': JSON.stringify({ compilerOptions: tsOptions({ types: [], outDir: 'out' }), include: ['index.ts', 'mcp.ts', 'mcp2.ts', 'providers.ts'] }),
  'providers.ts': providerClients,
  'mcp.ts': mcpRoundTrip,
  'mcp2.ts': mcp2RoundTrip,
  'index.ts': `
import { Tool, ToolParam, ToolService, Toolkit, ToolExecutionContext, runToolLoop, ScriptedProvider, type ToolResult, type AgentTool } from 'toolwright';
import { OpenAIProvider } from 'toolwright/openai';
import { AnthropicProvider } from 'toolwright/anthropic';
import { GeminiProvider } from 'toolwright/gemini';
import { createMcpServer } from 'toolwright/mcp';
import { instrumentToolkit } from 'toolwright/otel';
import { generateManifest } from 'toolwright/build';
import { toLangChainTools, type ToolwrightLangChainTool } from 'toolwright/langchain';
import { toOpenAIAgentsTools } from 'toolwright/openai-agents';
import { Agent } from '@openai/agents';
import { toAiSdkTools } from 'toolwright/ai-sdk';
import type { ToolSet } from 'ai';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { ToolwrightModule, type ToolwrightNestOptions } from 'toolwright/nestjs';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker, type TravellingContexts } from 'toolwright/bullmq';
class User { constructor(readonly id: string) {} }
@ToolService({ group: 'weather' })
export class Weather {
  @Tool({ description: 'Weather' })
  getWeather(@ToolParam({ name: 'city' }) city: string, user: User): string { return city + user.id; }
}
const toolkit = new Toolkit({ context: ToolExecutionContext.builder().register(new User('u')).build() });
const tools: AgentTool[] = toolkit.registerTool(Weather);
const result: Promise<ToolResult> = toolkit.callTool({ id: '1', name: 'get_weather', arguments: { city: 'Paris' } });
void runToolLoop({ provider: new ScriptedProvider([]), model: 'm', toolkit }, []);
const lcTools: ToolwrightLangChainTool[] = toLangChainTools(toolkit.session('s'), { context: ToolExecutionContext.of(new User('v')) });
const aiTools: ToolSet = toAiSdkTools(toolkit.session('s'));
void [tools, result, lcTools, aiTools, OpenAIProvider, AnthropicProvider, GeminiProvider, createMcpServer, instrumentToolkit, generateManifest];
void new Agent<ToolExecutionContext>({ name: 'a', tools: toOpenAIAgentsTools<ToolExecutionContext>(toolkit.session('s')) });
class Config { get(key: string): string { return key; } }
const nestOptions: ToolwrightNestOptions = { groups: [{ name: 'admin', active: false }], presets: { get_weather: { city: () => 'Paris' } } };
const asyncModule: DynamicModule = ToolwrightModule.forRootAsync({ inject: [Config], useFactory: async (config: Config) => ({ ...nestOptions, maxConcurrency: Number(config.get('3')) }) });
@Injectable()
export class NestWeather {
  constructor(readonly toolkit: Toolkit) {}
  @Tool({ description: 'Weather' })
  forecast(@ToolParam({ name: 'city' }) city: string): string { return city; }
}
@Module({ imports: [ToolwrightModule.forRoot(nestOptions)], providers: [NestWeather] })
export class AppModule {}
void asyncModule;
const travelling: TravellingContexts = { user: User };
const routing: QueuedTools = queueTools(toolkit, { connection: { host: '127.0.0.1', port: 6379 }, queueName: 'q', groups: ['weather'], contexts: travelling });
const worker: ToolWorker = createToolWorker(toolkit, { connection: { host: '127.0.0.1', port: 6379 }, queueName: 'q', concurrency: 2, workerOptions: { lockDuration: 5_000 } });
void [routing, worker];
`,
});
const esmTs = project('consumer-ts-esm', 'module', {
  'tsconfig.json': JSON.stringify({ compilerOptions: tsOptions({ types: ['node'], outDir: 'out' }), include: ['mcp.ts', 'mcp2.ts', 'providers.ts'] }),
  'providers.ts': providerClients,
  'mcp.ts': mcpRoundTrip,
  'mcp2.ts': mcp2RoundTrip,
});
for (const dir of [ts, esmTs]) {
  run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
  for (const file of ['out/mcp.js', 'out/mcp2.js']) {
    const out = run(process.execPath, [file], dir).trim();
    if (out !== 'ok') throw new Error(`${dir}/${file}: ${out}`);
  }
}

// the bin as a user's project runs it: from its node_modules, where typescript resolves
run(process.execPath, [path.join(cjs, 'node_modules/toolwright/dist/build/toolwright-schema-cli.js'), '--help'], cjs);
// without the optional peers of toolwright/build, /langchain, /nestjs, /ai-sdk, /bullmq, /redis, /postgres and fuzzTool: the core works; toolwright/build, its bin, toLangChainTools, ToolwrightModule.forRoot, toAiSdkTools, toolwright/bullmq, /redis, /postgres and fuzzTool name the install command
const install = "run 'npm i -D typescript typescript-json-schema'";
const light = project(
  'consumer-light',
  'commonjs',
  {
    'index.js': `const { Toolkit } = require('toolwright');
try { require('toolwright/build'); } catch (e) { if (e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes(${JSON.stringify(install)})) process.stdout.write('ok'); }
let lcMissing = false;
try { require('toolwright/langchain').toLangChainTools(new Toolkit()); } catch (e) { lcMissing = e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm i @langchain/core'"); }
if (!lcMissing) throw new Error('toolwright/langchain did not report its missing peer');
let nestMissing = false;
try { require('toolwright/nestjs').ToolwrightModule.forRoot(); } catch (e) { nestMissing = e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm i @nestjs/common @nestjs/core'"); }
if (!nestMissing) throw new Error('toolwright/nestjs did not report its missing peer');
let aiMissing = false;
try { require('toolwright/ai-sdk').toAiSdkTools(new Toolkit()); } catch (e) { aiMissing = e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm i ai'"); }
if (!aiMissing) throw new Error('toolwright/ai-sdk did not report its missing peer');
let queueMissing = false;
try { require('toolwright/bullmq'); } catch (e) { queueMissing = e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm install bullmq ioredis'"); }
if (!queueMissing) throw new Error('toolwright/bullmq did not report its missing peers');
let storesMissing = 0;
try { require('toolwright/redis'); } catch (e) { storesMissing += e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm install ioredis'") ? 1 : 0; }
try { require('toolwright/postgres'); } catch (e) { storesMissing += e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm install pg'") ? 1 : 0; }
if (storesMissing !== 2) throw new Error('toolwright/redis or toolwright/postgres did not report its missing peer');
const testing = require('toolwright/testing');
const fuzzed = new Toolkit();
fuzzed.registerTool({ name: 't', description: 'T', parameters: { type: 'object' }, execute: () => 'ok' });
testing.fuzzTool(fuzzed, 't').then(
  () => { throw new Error('fuzzTool ran without fast-check'); },
  (e) => { if (!(e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes("run 'npm install --save-dev fast-check'"))) throw e; },
);`,
    'service.ts': 'export class Service {}\n',
  },
  ['typescript', 'typescript-json-schema', '@langchain', 'ai', 'ai-v5', 'ai-v7', '@nestjs', 'toolwright-test-nest11', 'bullmq', 'ioredis', 'pg', 'fast-check'],
);
if (run(process.execPath, ['index.js'], light) !== 'ok') throw new Error('consumer-light: toolwright/build did not report its missing peers');
const bin = spawnSync(process.execPath, ['node_modules/toolwright/dist/build/toolwright-schema-cli.js', 'service.ts', '-o', 'tools.manifest.json'], { cwd: light, encoding: 'utf8' });
if (bin.status !== 1 || !bin.stderr.includes(install)) throw new Error(`consumer-light: toolwright-schema without its peers: exit ${bin.status}, ${bin.stderr}`);

fs.rmSync(work, { recursive: true, force: true });
process.stdout.write('package check passed: CommonJS, ESM and TypeScript (CommonJS and ESM, with an MCP round trip) consumers of the packed tarball (each also booting a Nest application context), and one without the optional peers\n');
