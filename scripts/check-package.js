'use strict';
// Packs toolwright with `npm pack` and uses the tarball as a user would: a fresh CommonJS project,
// a fresh ESM project and a TypeScript (nodenext) project that type-checks against the shipped
// types, and a CommonJS project without the optional peers of toolwright/build (typescript,
// typescript-json-schema). Dependencies are linked from this repo's node_modules so the check needs
// no network.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-pack-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

const tarball = path.join(work, JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root))[0].filename);
const unpacked = path.join(work, 'unpacked');
fs.mkdirSync(unpacked);
run('tar', ['-xzf', tarball, '-C', unpacked], root);
const shipped = path.join(unpacked, 'package');
for (const required of ['dist/index.js', 'dist/index.d.ts', 'dist/codegen/cli.js', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
  if (!fs.existsSync(path.join(shipped, required))) throw new Error(`the package lacks ${required}`);
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
  for (const sub of ['toolwright/openai', 'toolwright/anthropic', 'toolwright/mcp', 'toolwright/otel', 'toolwright/build']) await import(sub);
  process.stdout.write('ok\\n');
})().catch((e) => { console.error(e); process.exit(1); });
`;

const cjs = project('consumer-cjs', 'commonjs', { 'index.js': usage("const tw = require('toolwright');") });
const esm = project('consumer-esm', 'module', { 'index.mjs': usage("import * as tw from 'toolwright';") });
for (const [dir, file] of [[cjs, 'index.js'], [esm, 'index.mjs']]) {
  const out = run(process.execPath, [file], dir).trim();
  if (out !== 'ok') throw new Error(`${dir}: ${out}`);
}

const ts = project('consumer-ts', 'commonjs', {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: false, types: [], noEmit: true },
    include: ['index.ts'],
  }),
  'index.ts': `
import { Tool, ToolParam, ToolService, Toolkit, ToolExecutionContext, runToolLoop, ScriptedProvider, type ToolResult, type AgentTool } from 'toolwright';
import { OpenAIProvider } from 'toolwright/openai';
import { AnthropicProvider } from 'toolwright/anthropic';
import { createMcpServer } from 'toolwright/mcp';
import { instrumentToolkit } from 'toolwright/otel';
import { generateManifest } from 'toolwright/build';
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
void [tools, result, OpenAIProvider, AnthropicProvider, createMcpServer, instrumentToolkit, generateManifest];
`,
});
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], ts);

// the bin as a user's project runs it: from its node_modules, where typescript resolves
run(process.execPath, [path.join(cjs, 'node_modules/toolwright/dist/codegen/cli.js'), '--help'], cjs);
// without the optional peers of toolwright/build: the core works; toolwright/build and its bin name the install command
const install = "run 'npm i -D typescript typescript-json-schema'";
const light = project(
  'consumer-light',
  'commonjs',
  {
    'index.js': `require('toolwright');
try { require('toolwright/build'); } catch (e) { if (e.code === 'PEER_DEPENDENCY_MISSING' && e.message.includes(${JSON.stringify(install)})) process.stdout.write('ok'); }`,
    'service.ts': 'export class Service {}\n',
  },
  ['typescript', 'typescript-json-schema'],
);
if (run(process.execPath, ['index.js'], light) !== 'ok') throw new Error('consumer-light: toolwright/build did not report its missing peers');
const bin = spawnSync(process.execPath, ['node_modules/toolwright/dist/codegen/cli.js', 'service.ts', '-o', 'tools.manifest.json'], { cwd: light, encoding: 'utf8' });
if (bin.status !== 1 || !bin.stderr.includes(install)) throw new Error(`consumer-light: toolwright-schema without its peers: exit ${bin.status}, ${bin.stderr}`);

fs.rmSync(work, { recursive: true, force: true });
process.stdout.write('package check passed: CommonJS, ESM and TypeScript consumers of the packed tarball, and one without the build peers\n');
