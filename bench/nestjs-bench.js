#!/usr/bin/env node
'use strict';
/**
 * toolwright/nestjs bench: what `ToolwrightModule` adds to a Nest application's start. The module
 * has no call path of its own (the application calls the `Toolkit` it injects, the toolkit's own
 * `callTool`), so the only cost is at start: discovery of the tool providers and their one
 * registration. Measured on an application of PROVIDERS tool providers with TOOLS `@Tool` methods
 * each: `createApplicationContext` + `close` without the module and with it (interleaved run by run
 * in one process; the difference is mostly the toolkit's registration, which swings with the
 * machine's load), and, on a started application, discovery itself (the module's walk over Nest's
 * providers) against registering the instances it finds on a fresh Toolkit. Bar: discovery ≤ 5 %
 * of registration.
 *
 *   npm run bench                                  # builds dist/ and runs every bench
 *   npx tsc -p tsconfig.build.json && node bench/nestjs-bench.js
 *   RUNS=9 PROVIDERS=200 node bench/nestjs-bench.js
 *
 * Exits with status 1 when the bar is missed.
 */
require('reflect-metadata');
const path = require('node:path');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const dist = path.resolve(process.env.TOOLWRIGHT_DIST || path.join(__dirname, '..', 'dist'));
if (!fs.existsSync(path.join(dist, 'nestjs/index.js'))) {
  console.error(`nestjs-bench: ${dist}/nestjs/index.js not found; run \`npx tsc -p tsconfig.build.json\` first.`);
  process.exit(1);
}
const tw = require(path.join(dist, 'index.js'));
const { ToolwrightModule } = require(path.join(dist, 'nestjs/index.js'));
const { discoverToolServices } = require(path.join(dist, 'nestjs/nest-discovery.js'));
const common = require('@nestjs/common');
const { DiscoveryService, NestFactory } = require('@nestjs/core');

const RUNS = Number(process.env.RUNS || 7);
const PROVIDERS = Number(process.env.PROVIDERS || 100);
const TOOLS = Number(process.env.TOOLS || 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A dependency every tool provider injects, as Nest applications have them. */
class Api {
  get(city) {
    return `sunny in ${city}`;
  }
}
common.Injectable()(Api);

function toolProvider(index) {
  const Provider = class {
    constructor(api) {
      this.api = api;
    }
  };
  Object.defineProperty(Provider, 'name', { value: `Tools${index}` });
  for (let t = 0; t < TOOLS; t++) {
    const method = `tool${t}`;
    Provider.prototype[method] = function (city) {
      return this.api.get(city);
    };
    tw.ToolParam({ name: 'city', schema: { minLength: 1 } })(Provider.prototype, method, 0);
    tw.Tool({ name: `p${index}_t${t}`, description: `Tool ${t} of provider ${index}` })(Provider.prototype, method, Object.getOwnPropertyDescriptor(Provider.prototype, method));
    Reflect.defineMetadata('design:paramtypes', [String], Provider.prototype, method);
  }
  common.Injectable()(Provider);
  common.Inject(Api)(Provider, undefined, 0);
  return Provider;
}

const providers = Array.from({ length: PROVIDERS }, (_, i) => toolProvider(i));
function appModule(imports) {
  class AppModule {}
  common.Module({ imports, providers: [Api, ...providers] })(AppModule);
  return AppModule;
}
const Plain = appModule([]);
const WithToolwright = appModule([ToolwrightModule.forRoot()]);

async function startAndClose(module, measure) {
  const start = performance.now();
  const app = await NestFactory.createApplicationContext(module, { logger: false });
  const ms = performance.now() - start;
  const found = measure ? measure(app) : undefined;
  await app.close();
  return { ms, found };
}

/** Discovery and registration, timed on a started application. */
function discoverAndRegister(app) {
  let start = performance.now();
  const instances = discoverToolServices(app.get(DiscoveryService, { strict: false }));
  const discovery = performance.now() - start;
  start = performance.now();
  const registration = new tw.Toolkit().registration();
  for (const instance of instances) registration.tool(instance);
  const tools = registration.apply().length;
  return { discovery, registration: performance.now() - start, tools, toolkit: app.get(tw.Toolkit) };
}

(async () => {
  const { found } = await startAndClose(WithToolwright, discoverAndRegister);
  if (found.tools !== PROVIDERS * TOOLS || found.toolkit.getAllTools().length !== PROVIDERS * TOOLS) throw new Error(`expected ${PROVIDERS * TOOLS} tools, got ${found.tools}`);
  await startAndClose(Plain);
  const plain = [];
  const withModule = [];
  const discovery = [];
  const registration = [];
  for (let run = 0; run < RUNS; run++) {
    plain.push((await startAndClose(Plain)).ms);
    const started = await startAndClose(WithToolwright, discoverAndRegister);
    withModule.push(started.ms);
    discovery.push(started.found.discovery);
    registration.push(started.found.registration);
  }
  const ratio = median(discovery) / median(registration);
  console.log(`${PROVIDERS} providers × ${TOOLS} tools, ${RUNS} runs, medians (Nest ${require('@nestjs/core/package.json').version}):`);
  console.log(`  Nest start + close without ToolwrightModule: ${median(plain).toFixed(1)} ms`);
  console.log(`  … with ToolwrightModule.forRoot():           ${median(withModule).toFixed(1)} ms (+${(median(withModule) - median(plain)).toFixed(1)} ms)`);
  console.log(`  registering the ${PROVIDERS} instances on a Toolkit:   ${median(registration).toFixed(1)} ms`);
  console.log(`  discovery (the module's walk over Nest's providers): ${median(discovery).toFixed(2)} ms = ${(ratio * 100).toFixed(1)} % of registration (bar ≤ 5 %)`);
  console.log("  per call: nothing (the application calls the injected Toolkit: the toolkit's own callTool path)");
  if (ratio > 0.05) process.exitCode = 1;
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
