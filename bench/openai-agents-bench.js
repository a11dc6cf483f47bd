#!/usr/bin/env node
'use strict';
/**
 * OpenAI Agents SDK adapter bench.
 *
 * Per-call cost, from the model's raw JSON `{"city":"Paris","days":3}` to the text the model gets,
 * of three paths measured in the same process, interleaved run by run after a JIT warm-up:
 *   adapter  `invoke` of a `toOpenAIAgentsTools(toolkit)` FunctionTool (→ view.callTool)
 *   sdk      `invoke` of the SDK's own `tool({ parameters: <JSON schema>, execute })` for the same function
 *   toolwright  `toolkit.callTool` alone
 * Goal: adapter <= 1.1 x (sdk + toolwright), i.e. the adapter adds at most 10% over the framework's
 * own tool path plus toolwright's. Exits with status 1 when it is missed.
 *
 *   npx tsc -p tsconfig.build.json && node bench/openai-agents-bench.js
 *   RUNS=7 CALLS=100000 node bench/openai-agents-bench.js
 */
const path = require('node:path');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const dist = path.resolve(process.env.TOOLWRIGHT_DIST || path.join(__dirname, '..', 'dist'));
if (!fs.existsSync(path.join(dist, 'adapters/openai-agents/index.js'))) {
  console.error(`openai-agents-bench: ${dist} has no adapters/openai-agents; run \`npx tsc -p tsconfig.build.json\` first.`);
  process.exit(1);
}
const { Toolkit } = require(path.join(dist, 'index.js'));
const { toOpenAIAgentsTools } = require(path.join(dist, 'adapters/openai-agents/index.js'));
const sdk = require('@openai/agents');

sdk.setTracingDisabled(true);
const RUNS = Number(process.env.RUNS || 5);
const CALLS = Number(process.env.CALLS || 50_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const parameters = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    days: { type: ['integer', 'null'], minimum: 1, maximum: 14 },
  },
  required: ['city', 'days'],
  additionalProperties: false,
};
const weather = (city, days) => `sunny in ${city} for ${days ?? 1} day(s)`;
const ARGS = '{"city":"Paris","days":3}';
const EXPECTED = weather('Paris', 3);

const toolkit = new Toolkit();
toolkit.registerTool({
  name: 'get_weather',
  description: 'Get the weather forecast',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', minimum: 1, maximum: 14 } },
    required: ['city'],
  },
  execute: (args) => weather(args.city, args.days),
});
const adapted = toOpenAIAgentsTools(toolkit).find((t) => t.name === 'get_weather');
const own = sdk.tool({ name: 'get_weather', description: 'Get the weather forecast', parameters, strict: true, execute: (args) => weather(args.city, args.days) });
const runContext = new sdk.RunContext({});

let id = 0;
const paths = {
  adapter: () => adapted.invoke(runContext, ARGS, { toolCall: { type: 'function_call', name: 'get_weather', callId: `c${++id}`, arguments: ARGS } }),
  sdk: () => own.invoke(runContext, ARGS, { toolCall: { type: 'function_call', name: 'get_weather', callId: `c${++id}`, arguments: ARGS } }),
  toolwright: () => toolkit.callTool({ id: `c${++id}`, name: 'get_weather', arguments: ARGS }).then((r) => r.forLLM),
};

async function measure(run, calls) {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const out = await run();
    if (out !== EXPECTED) throw new Error(`unexpected output: ${String(out)}`);
  }
  return ((performance.now() - t0) * 1000) / calls; // µs per call
}

(async () => {
  for (const run of Object.values(paths)) await measure(run, 20_000); // warm-up
  const samples = { adapter: [], sdk: [], toolwright: [] };
  for (let r = 0; r < RUNS; r++) for (const [name, run] of Object.entries(paths)) samples[name].push(await measure(run, CALLS));
  const m = Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
  const sum = m.sdk + m.toolwright;
  const ratio = m.adapter / sum;
  console.log(`calls per run: ${CALLS}, runs: ${RUNS} (medians, µs per call)`);
  console.log(`  adapter invoke (→ view.callTool)      ${m.adapter.toFixed(2)}`);
  console.log(`  SDK tool() invoke                     ${m.sdk.toFixed(2)}`);
  console.log(`  toolkit.callTool                      ${m.toolwright.toFixed(2)}`);
  console.log(`  adapter / (SDK + toolwright)          ${ratio.toFixed(2)} (goal <= 1.10)`);
  console.log(`  adapter over toolkit.callTool         +${(m.adapter - m.toolwright).toFixed(2)} µs`);
  if (ratio > 1.1) {
    console.error('openai-agents-bench: the adapter costs more than 10% over the SDK tool path plus toolwright');
    process.exitCode = 1;
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
