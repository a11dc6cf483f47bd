'use strict';
// Core benchmarks: heap per registered tool, provider definitions cold and cached,
// and activeTools$ emission after toggling a group of 10,000 tools. Run through `npm run bench`
// (which builds dist/ first), with --expose-gc for the heap figures.
const { Toolkit, Tool, ToolParam } = require('../dist/index.js');

const { heapUsed: heap } = require('./heap');
const micros = (fn, runs) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / runs;
};

function decoratedClasses(count, perClass) {
  const classes = [];
  for (let c = 0; c < count / perClass; c++) {
    const Service = class {};
    Object.defineProperty(Service, 'name', { value: `Service${c}` });
    for (let m = 0; m < perClass; m++) {
      const method = `method${m}`;
      Service.prototype[method] = function (city, days) {
        return `${city}:${days}`;
      };
      ToolParam({ name: 'city', description: 'City name' })(Service.prototype, method, 0);
      ToolParam({ name: 'days', required: false, integer: true, schema: { minimum: 1, maximum: 14 } })(Service.prototype, method, 1);
      Tool({ name: `tool_${c}_${m}`, description: `Tool ${c}/${m}`, group: 'bulk' })(
        Service.prototype,
        method,
        Object.getOwnPropertyDescriptor(Service.prototype, method),
      );
      Reflect.defineMetadata('design:paramtypes', [String, Number], Service.prototype, method);
    }
    classes.push(new Service());
  }
  return classes;
}

function agentTools(count) {
  return Array.from({ length: count }, (_, i) => ({
    name: `agent_${i}`,
    description: `Agent tool ${i}`,
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 14 } }, required: ['city'] },
    behaviour: { group: 'bulk' },
    execute: (args) => String(args.city),
  }));
}

const rows = [];
const row = (what, value, bar) => rows.push({ what, value, bar });

/** Heap per tool of registering `targets` (made beforehand; `tools` tools in all) into a fresh toolkit. */
function heapPerTool(what, targets, tools) {
  const before = heap();
  const toolkit = new Toolkit();
  for (const target of targets) toolkit.registerTool(target);
  const after = heap();
  row(what, `${((after - before) / tools / 1024).toFixed(2)} KB`, '≤ 4 KB');
  globalThis.keep = toolkit;
}

heapPerTool('heap per decorated tool (10,000 tools)', decoratedClasses(10_000, 10), 10_000);
// one fresh decorated class per tool: what a registry of many small services costs
heapPerTool('heap per decorated tool, a class per tool (10,000 tools)', decoratedClasses(10_000, 1), 10_000);
heapPerTool('heap per AgentTool object (10,000 tools)', agentTools(10_000), 10_000);
{
  const toolkit = new Toolkit();
  for (const instance of decoratedClasses(1_000, 10)) toolkit.registerTool(instance);
  const cold = [];
  for (let i = 0; i < 5; i++) {
    // a registration clears the shared definitions cache (a group toggle back and forth would hit it)
    toolkit.registerTool({ name: `cold_${i}`, description: 'Clears the cache', parameters: { type: 'object', properties: {} }, execute: () => '' });
    const start = process.hrtime.bigint();
    toolkit.toProviderDefs('openai', { strict: true });
    cold.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  cold.sort((a, b) => a - b);
  row('provider defs, 1,000 tools, cold (openai strict)', `${cold[2].toFixed(2)} ms`, 'info');
  const cached = micros(() => toolkit.toProviderDefs('openai', { strict: true }), 10_000) / 1000;
  row('provider defs, 1,000 tools, cached', `${cached.toFixed(4)} ms`, '≤ 0.2 ms');
}
{
  const toolkit = new Toolkit();
  for (const instance of decoratedClasses(10_000, 10)) toolkit.registerTool(instance);
  let emitted = 0;
  let last;
  const subscription = toolkit.activeTools$.subscribe((tools) => {
    emitted++;
    last = tools;
  });
  const times = [];
  for (let i = 0; i < 11; i++) {
    const active = i % 2 === 1;
    const start = process.hrtime.bigint();
    toolkit.updateToolGroups(['bulk'], active);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  subscription.unsubscribe();
  if (emitted !== 12 || last.length !== 0) throw new Error(`unexpected emissions: ${emitted}, last ${last.length}`);
  times.sort((a, b) => a - b);
  row('activeTools$ emission after toggling 10,000 tools (median)', `${times[5].toFixed(2)} ms`, '≤ 5 ms');
}

{
  // The run-time cost of a manifest for 1,000 tools: JSON text → parsed, checked manifest →
  // registration merging it, against the same registration without a manifest.
  const { parseManifest } = require('../dist/index.js');
  const instances = decoratedClasses(1_000, 10);
  const classes = {};
  for (const instance of instances) {
    const methods = {};
    for (let m = 0; m < 10; m++) {
      methods[`method${m}`] = {
        description: `Method ${m}`,
        params: [
          { name: 'city', index: 0, optional: false, kind: 'model', description: 'City name', schema: { type: 'string', description: 'City name' } },
          { name: 'days', index: 1, optional: true, kind: 'model', schema: { type: 'integer', minimum: 1, maximum: 14 } },
        ],
      };
    }
    classes[instance.constructor.name] = { file: 'bench.ts', methods };
  }
  const text = JSON.stringify({ version: 1, generator: 'toolwright-schema', classes });
  const time = (fn) => {
    const start = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const withManifest = [];
  const without = [];
  for (let i = 0; i < 5; i++) {
    withManifest.push(time(() => {
      const toolkit = new Toolkit({ manifest: parseManifest(JSON.parse(text)) });
      for (const instance of instances) toolkit.registerTool(instance);
    }));
    without.push(time(() => {
      const toolkit = new Toolkit();
      for (const instance of instances) toolkit.registerTool(instance);
    }));
  }
  withManifest.sort((a, b) => a - b);
  without.sort((a, b) => a - b);
  row('manifest for 1,000 tools: parse + register (median)', `${withManifest[2].toFixed(1)} ms (${(withManifest[2] - without[2]).toFixed(1)} ms over no manifest)`, '≤ 20 ms');
}

console.table(rows);
