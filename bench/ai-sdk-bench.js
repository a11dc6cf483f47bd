#!/usr/bin/env node
'use strict';
/**
 * toolwright/ai-sdk bench: the adapter's per-call overhead.
 *
 * Baseline: the glue a user writes by hand — the SDK's own `tool({ inputSchema: jsonSchema(schema),
 * execute })` whose `execute` calls `view.callTool` with the SDK's toolCallId and abortSignal —
 * i.e. the framework's plain tool path plus toolwright's. Measured against it, in the same
 * process, interleaved run by run, after a warm-up (medians of RUNS runs):
 *
 *  (a) `execute` alone, as the SDK's executeTool runs it (an iterable consumed to its end), for
 *      `toAiSdkTools` with preliminary results (the default) and without;
 *  (b) whole `generateText` runs with the SDK's mock model (ai/test): one step of CALLS_PER_STEP
 *      tool calls, then a text reply — parsing, execution and the prompt of step 2 included.
 *
 * Goal: the adapter ≤ 10% over the baseline in (b). Exits with status 1 when it is missed.
 *
 *   npm run build && node bench/ai-sdk-bench.js
 *   RUNS=7 CALLS=50000 node bench/ai-sdk-bench.js
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const dist = path.resolve(process.env.TOOLWRIGHT_DIST || path.join(__dirname, '..', 'dist'));
const { Toolkit, Tool, ToolParam } = require(path.join(dist, 'index.js'));
const { toAiSdkTools } = require(path.join(dist, 'adapters/ai-sdk/index.js'));
const { generateText, jsonSchema, tool, stepCountIs } = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
const aiVersion = require('ai/package.json').version;

const RUNS = Number(process.env.RUNS || 5);
const CALLS = Number(process.env.CALLS || 30_000);
const LOOPS = Number(process.env.LOOPS || 300);
const CALLS_PER_STEP = 10;
const GOAL = 1.1;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

class Weather {
  getWeather(city, days) {
    return `${city}: 18 °C${days ? ` for ${days} days` : ''}`;
  }
}
ToolParam({ name: 'city', description: 'City' })(Weather.prototype, 'getWeather', 0);
ToolParam({ name: 'days', description: 'Days', required: false, type: () => Number })(Weather.prototype, 'getWeather', 1);
Tool({ name: 'get_weather', description: 'Weather of a city' })(Weather.prototype, 'getWeather', Object.getOwnPropertyDescriptor(Weather.prototype, 'getWeather'));
Reflect.defineMetadata('design:paramtypes', [String, Number], Weather.prototype, 'getWeather');

const toolkit = new Toolkit();
toolkit.registerTool(new Weather());

/** The hand-written glue: the SDK's own tool path plus `view.callTool`. */
function plainTools(view) {
  const tools = {};
  for (const t of view.getToolSchemas()) {
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(structuredClone(t.parameters)),
      // the model gets forLLM, an error result as a thrown error (what the adapter does)
      execute: async (input, { toolCallId, abortSignal }) => {
        const result = await view.callTool({ id: toolCallId, name: t.name, arguments: input }, { signal: abortSignal });
        if (result.isError) throw new Error(result.forLLM);
        return result.forLLM;
      },
    });
  }
  return tools;
}

const variants = {
  plain: plainTools(toolkit),
  adapter: toAiSdkTools(toolkit),
  'adapter (preliminaryResults: false)': toAiSdkTools(toolkit, { preliminaryResults: false }),
};

/** As the SDK's executeTool consumes an execute: an iterable to its end, a Promise awaited. */
async function runExecute(t, input, options) {
  const out = t.execute(input, options);
  if (out != null && typeof out[Symbol.asyncIterator] === 'function') {
    let last;
    for await (const part of out) last = part;
    return last;
  }
  return out;
}

async function executeLoop(tools, n) {
  const t = tools.get_weather;
  const options = { toolCallId: 'call_1', messages: [] };
  const input = { city: 'Paris', days: 3 };
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await runExecute(t, input, options);
  return ((performance.now() - t0) * 1000) / n; // µs per call
}

function mockModel() {
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
  const calls = Array.from({ length: CALLS_PER_STEP }, (_, i) => ({ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'get_weather', input: '{"city":"Paris","days":3}' }));
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () =>
      step++ % 2 === 0
        ? { content: calls, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  });
}

async function generateLoop(tools, n) {
  const model = mockModel();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const result = await generateText({ model, tools, prompt: 'weather', stopWhen: stepCountIs(3) });
    if (result.text !== 'done') throw new Error('unexpected run');
  }
  return ((performance.now() - t0) * 1000) / (n * CALLS_PER_STEP); // µs per tool call, the whole loop included
}

async function measure(label, loop, n) {
  const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const tools of Object.values(variants)) await loop(tools, Math.ceil(n / 5)); // warm-up
  for (let r = 0; r < RUNS; r++) for (const [name, tools] of Object.entries(variants)) samples[name].push(await loop(tools, n));
  const base = median(samples.plain);
  console.log(`\n${label}`);
  const rows = {};
  for (const [name, xs] of Object.entries(samples)) {
    rows[name] = median(xs);
    console.log(`  ${name.padEnd(38)} ${median(xs).toFixed(2).padStart(8)} µs/call   ${name === 'plain' ? 'baseline' : `${((median(xs) / base - 1) * 100).toFixed(1).padStart(5)} %`}`);
  }
  return rows;
}

(async () => {
  const plainCall = async (n) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await toolkit.callTool({ id: 'c', name: 'get_weather', arguments: { city: 'Paris', days: 3 } });
    return ((performance.now() - t0) * 1000) / n;
  };
  await plainCall(CALLS / 5);
  const callTool = median([await plainCall(CALLS), await plainCall(CALLS), await plainCall(CALLS)]);
  console.log(`ai ${aiVersion}, Node ${process.version}; plain = the SDK's tool() + jsonSchema() with execute → view.callTool → forLLM`);
  console.log(`view.callTool alone: ${callTool.toFixed(2)} µs/call`);
  await measure(`(a) execute as the SDK runs it (${CALLS} calls × ${RUNS} runs)`, executeLoop, CALLS);
  const loop = await measure(`(b) generateText, ${CALLS_PER_STEP} tool calls per step, mock model (${LOOPS} runs × ${RUNS})`, generateLoop, LOOPS);
  const ratio = loop.adapter / loop.plain;
  console.log(`\ngoal: adapter ≤ ${((GOAL - 1) * 100).toFixed(0)} % over the plain path in (b): ${((ratio - 1) * 100).toFixed(1)} % → ${ratio <= GOAL ? 'met' : 'MISSED'}`);
  if (ratio > GOAL) process.exitCode = 1;
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
