import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileSources, makeProject, runNode as node } from '../support/compiled-project';

/**
 * A light install, checked on the compiled entry points in real `node` processes:
 * `require('toolwright')` loads none of the packages only some users need, and `toolwright/build`
 * without its optional peers fails with the install command (a project where they are really
 * absent, not a mock).
 */

/** What the core may load only on first need (the build peers: never). */
const LAZY = ['typescript', 'typescript-json-schema', 'class-validator', 'class-transformer', 'ajv-formats'];
const BUILD_PEERS = ['typescript', 'typescript-json-schema'];
/**
 * What `require('toolwright')` does not load either (the cold require): the agent frameworks
 * (`@openai/agents`, `@langchain/core`, `ai`, `@nestjs/*`, `bullmq`: their subpaths only), Ajv and re2js
 * (the first schema and the first pattern load them), tinyglobby (`toolwright/build` only),
 * `node:crypto` and the stream modules it brings (approval ids come from Web Crypto), and the
 * toolkit's working parts (`dist/` files), which the first `new Toolkit()` loads.
 */
const NOT_AT_REQUIRE = {
  packages: ['ajv', 're2js', 'tinyglobby', '@openai/agents', '@langchain/core', 'ai', '@nestjs/common', '@nestjs/core', 'bullmq', 'ioredis'],
  builtins: ['crypto', 'stream'],
  own: [
    'toolkit/runtime.js',
    'toolkit/dispatcher.js',
    'toolkit/registry.js',
    'toolkit/meta-tools.js',
    'toolkit/skills/skill-run.js',
    'executor/call/start-call.js',
    'executor/call/call-run.js',
    'executor/validation/validation.js',
    'executor/presets/preset-secrets.js',
    'schema/descriptor-builder.js',
    'schema/type-schema.js',
  ],
} as const;
/**
 * At most this many of toolwright's own files load with `require('toolwright')` (68 with
 * `Principal`, the authorization rule's types and the approval requester, 69 with the streaming
 * loop's parts, 76 with the faces of model, di, executor, schema, toolkit, approval and hooks that the root index reads;
 * there were 95): a new eager import chain shows up here. Each file costs 0.1–0.25 ms of a cold start.
 */
const MAX_OWN_AT_REQUIRE = 76;
const INSTALL = "run 'npm i -D typescript typescript-json-schema'";

/** What the probe saw of {@link NOT_AT_REQUIRE}: before and after `require`, and after the first toolkit. */
interface ColdStart {
  readonly before: readonly string[];
  readonly atRequire: { readonly packages: readonly string[]; readonly builtins: readonly string[]; readonly own: readonly string[] };
  readonly ownFiles: number;
  readonly afterToolkit: readonly string[];
}

/**
 * The child: records every module request (`Module._load`) and every loaded file (`require.cache`),
 * requires the root entry, uses it without DTOs or formats, then with a `format` schema and a DTO.
 * Prints which of {@link LAZY} had been loaded after each step.
 */
const PROBE = `
const Module = require('node:module');
const path = require('node:path');
const requests = new Set();
const load = Module._load;
Module._load = function (request) {
  requests.add(request);
  return load.apply(this, arguments);
};
const LAZY = ${JSON.stringify(LAZY)};
const NOT_AT_REQUIRE = ${JSON.stringify(NOT_AT_REQUIRE)};
const loaded = (names = LAZY) => names.filter((name) =>
  [...requests].some((r) => r === name || r.startsWith(name + '/')) ||
  Object.keys(require.cache).some((file) => file.split(path.sep).includes(name)));
const dist = path.join(__dirname, 'dist') + path.sep;
const own = () => Object.keys(require.cache).filter((file) => file.startsWith(dist)).map((file) => file.slice(dist.length).split(path.sep).join('/'));
const eager = () => ({
  packages: loaded(NOT_AT_REQUIRE.packages),
  builtins: NOT_AT_REQUIRE.builtins.filter((name) => process.moduleLoadList.includes('NativeModule ' + name)),
  own: NOT_AT_REQUIRE.own.filter((file) => own().includes(file)),
});
const steps = {};
const builtinsBefore = NOT_AT_REQUIRE.builtins.filter((name) => process.moduleLoadList.includes('NativeModule ' + name));

const tw = require('./dist/index.js');
steps.require = loaded();
const cold = { before: builtinsBefore, atRequire: eager(), ownFiles: own().length };

const define = (target, method, params, types) => {
  params.forEach((options, index) => options && tw.ToolParam(options)(target.prototype, method, index));
  tw.Tool({ description: method })(target.prototype, method, Object.getOwnPropertyDescriptor(target.prototype, method));
  Reflect.defineMetadata('design:paramtypes', types, target.prototype, method);
};
class User { constructor(id) { this.id = id; } }
class Weather { forecast(city, user) { return city + ' for ' + user.id; } }
define(Weather, 'forecast', [{ name: 'city', schema: { pattern: '^[A-Z]' } }], [String, User]);
tw.ToolService()(Weather);

(async () => {
  const toolkit = new tw.Toolkit({ context: tw.ToolExecutionContext.builder().register(new User('u1')).build() });
  cold.afterToolkit = eager().own;
  toolkit.registerTool(Weather);
  toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 1 } } }, execute: (a) => String(a.text) });
  const plain = [
    await toolkit.callTool({ id: '1', name: 'forecast', arguments: { city: 'Paris' } }),
    await toolkit.callTool({ id: '2', name: 'echo', arguments: { text: '' } }),
  ];
  toolkit.toProviderDefs('openai', { strict: true });
  steps.plainUse = loaded();

  toolkit.registerTool({ name: 'mail', description: 'Mail', parameters: { type: 'object', properties: { to: { type: 'string', format: 'email' } } }, execute: (a) => a.to });
  const format = await toolkit.callTool({ id: '3', name: 'mail', arguments: { to: 'not-an-email' } });
  steps.format = loaded();

  const cv = require('class-validator');
  class Order {}
  cv.IsInt()(Order.prototype, 'qty');
  cv.Min(1)(Order.prototype, 'qty');
  Reflect.defineMetadata('design:type', Number, Order.prototype, 'qty');
  class Shop { order(order) { return order instanceof Order ? 'an Order of ' + order.qty : 'a plain object'; } }
  define(Shop, 'order', [{ name: 'order' }], [Order]);
  toolkit.registerTool(new Shop());
  const dto = [
    await toolkit.callTool({ id: '4', name: 'order', arguments: { order: { qty: 2 } } }),
    await toolkit.callTool({ id: '5', name: 'order', arguments: { order: { qty: 0.5 } } }),
  ];
  steps.dto = loaded();
  const show = (r) => (r.isError ? 'error ' + r.error.code : r.forLLM);
  process.stdout.write(JSON.stringify({ steps, cold, results: [...plain, format, ...dto].map(show) }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('a light install', () => {
  let work: string;
  let full: string;
  let light: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-light-'));
    const dist = path.join(work, 'dist');
    compileSources(dist);
    full = makeProject(path.join(work, 'full'), dist, []);
    light = makeProject(path.join(work, 'light'), dist, BUILD_PEERS);
    fs.writeFileSync(path.join(full, 'probe.js'), PROBE);
    fs.writeFileSync(path.join(light, 'probe.js'), PROBE);
    fs.writeFileSync(path.join(light, 'service.ts'), 'export class Service {}\n');
  });

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it.each([
    ['every package installed', () => full],
    ['without the build peers', () => light],
  ])("require('toolwright') loads none of them nor the toolkit's working parts, and plain tools keep them unloaded (%s)", async (_label, dir) => {
    const run = await node(dir(), ['probe.js']);
    expect(run.stderr).toBe('');
    const { steps, cold, results } = JSON.parse(run.stdout) as { steps: Record<string, string[]>; cold: ColdStart; results: string[] };
    expect(steps.require).toEqual([]);
    expect(cold.before).toEqual([]);
    expect(cold.atRequire).toEqual({ packages: [], builtins: [], own: [] });
    expect(cold.ownFiles).toBeLessThanOrEqual(MAX_OWN_AT_REQUIRE);
    // the probe sees them when they are loaded: the first toolkit loads its working parts
    expect(cold.afterToolkit).toEqual(NOT_AT_REQUIRE.own);
    expect(steps.plainUse).toEqual([]);
    // the probe sees a loaded module when there is one: the first format and the first DTO load theirs
    expect(steps.format).toEqual(['ajv-formats']);
    expect(steps.dto).toEqual(expect.arrayContaining(['class-validator', 'class-transformer', 'ajv-formats']));
    expect(steps.dto).not.toEqual(expect.arrayContaining(['typescript']));
    expect(steps.dto).not.toEqual(expect.arrayContaining(['typescript-json-schema']));
    expect(results).toEqual(['Paris for u1', 'error INVALID_ARGUMENTS', 'error INVALID_ARGUMENTS', 'an Order of 2', 'error INVALID_ARGUMENTS']);
  });

  it('the light project really lacks the build peers', async () => {
    const run = await node(light, ['-e', `for (const m of ${JSON.stringify(BUILD_PEERS)}) { try { require.resolve(m); console.log('found ' + m); } catch {} }`]);
    expect(run.stdout).toBe('');
  });

  it("require('toolwright/build') without them throws PEER_DEPENDENCY_MISSING naming the install command", async () => {
    const run = await node(light, [
      '-e',
      `try { require('./dist/build/index.js'); } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, name: e.name, message: e.message })); }`,
    ]);
    expect(JSON.parse(run.stdout)).toEqual({
      code: 'PEER_DEPENDENCY_MISSING',
      name: 'ToolkitError',
      message: `toolwright/build needs typescript and typescript-json-schema, optional peer dependencies that are not installed: ${INSTALL}.`,
    });
  });

  it('toolwright-schema without them prints the install command and exits 1 (--help still works)', async () => {
    const generate = await node(light, ['dist/build/toolwright-schema-cli.js', 'service.ts', '-o', 'tools.manifest.json']);
    expect(generate.code).toBe(1);
    expect(generate.stderr).toBe(
      `toolwright-schema: toolwright/build needs typescript and typescript-json-schema, optional peer dependencies that are not installed: ${INSTALL}.\n`,
    );
    expect(fs.existsSync(path.join(light, 'tools.manifest.json'))).toBe(false);
    const help = await node(light, ['dist/build/toolwright-schema-cli.js', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: toolwright-schema');
  });

  it('with them, the compiled toolwright-schema generates a manifest', async () => {
    fs.writeFileSync(path.join(full, 'service.ts'), 'export class Service {}\n');
    const run = await node(full, ['dist/build/toolwright-schema-cli.js', 'service.ts', '-o', 'tools.manifest.json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(full, 'tools.manifest.json'), 'utf8'))).toMatchObject({ classes: {} });
  });
});
