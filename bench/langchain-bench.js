#!/usr/bin/env node
'use strict';
/**
 * LangChain adapter bench: the per-call cost of `toLangChainTools`'
 * `invoke(ToolCall)` → `ToolMessage`, against what it replaces: LangChain's own tool path
 * (`tool(fn, { schema })`'s `invoke(ToolCall)`, JSON-Schema validation and callbacks included)
 * plus toolwright's own (`view.callTool`). Both measured in the same process, interleaved run by
 * run, after a JIT warm-up; medians shown. Bar: adapter <= 1.10 x (LangChain tool + callTool).
 *
 *   npm run bench                                  # builds dist/ and runs every bench
 *   npx tsc -p tsconfig.build.json && node bench/langchain-bench.js
 *   RUNS=7 CALLS=20000 node bench/langchain-bench.js
 *
 * Exits with status 1 when the bar is missed.
 */
const path = require('node:path');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const dist = path.resolve(process.env.TOOLWRIGHT_DIST || path.join(__dirname, '..', 'dist'));
if (!fs.existsSync(path.join(dist, 'adapters/langchain/index.js'))) {
  console.error(`langchain-bench: ${dist}/adapters/langchain/index.js not found; run \`npx tsc -p tsconfig.build.json\` first.`);
  process.exit(1);
}
const { Toolkit } = require(path.join(dist, 'index.js'));
const { toLangChainTools } = require(path.join(dist, 'adapters/langchain/index.js'));
const { tool } = require('@langchain/core/tools');

const RUNS = Number(process.env.RUNS || 5);
const CALLS = Number(process.env.CALLS || 10_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, digits = 2) => n.toFixed(digits);

const parameters = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    days: { type: 'integer', minimum: 1, maximum: 14 },
    unit: { type: 'string', enum: ['c', 'f'] },
  },
  required: ['city'],
  additionalProperties: false,
};
const forecast = (args) => `${args.days ?? 1} day(s) of sun in ${args.city}`;
const ARGS = { city: 'Paris', days: 3 };

const toolkit = new Toolkit();
toolkit.registerTool({ name: 'forecast', description: 'The forecast for a city', parameters, execute: forecast });
const [adapted] = toLangChainTools(toolkit);
const native = tool(forecast, { name: 'forecast', description: 'The forecast for a city', schema: JSON.parse(JSON.stringify(parameters)) });

/** Mean microseconds per call of `once(i)`, awaited one after the other. */
async function perCall(once, calls = CALLS) {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await once(i);
  return ((performance.now() - t0) * 1000) / calls;
}

/** The three paths, without LangChain callbacks (`config` undefined) or with a no-op handler (a traced run). */
const pathsWith = (config) => ({
  callTool: (i) => toolkit.callTool({ id: `c${i}`, name: 'forecast', arguments: ARGS }),
  langchainTool: (i) => native.invoke({ id: `c${i}`, name: 'forecast', args: ARGS, type: 'tool_call' }, config),
  adapter: (i) => adapted.invoke({ id: `c${i}`, name: 'forecast', args: ARGS, type: 'tool_call' }, config),
});

async function main() {
  let missed = false;
  for (const [title, config] of [
    ['no callbacks', undefined],
    ['a callback handler (as a traced run has)', { callbacks: [{ handleToolStart() {}, handleToolEnd() {} }] }],
  ]) {
    missed = (await scenario(title, pathsWith(config))) || missed;
  }
  if (missed) process.exitCode = 1;
}

async function scenario(title, paths) {
  // both answer the same, as a ToolMessage
  const [a, n] = [await paths.adapter(0), await paths.langchainTool(0)];
  if (a.content !== n.content || a.status !== 'success' || a.tool_call_id !== 'c0') throw new Error(`different answers: ${a.content} / ${n.content}`);
  for (const once of Object.values(paths)) await perCall(once, 3000); // warm-up (JIT)
  const runs = { callTool: [], langchainTool: [], adapter: [] };
  for (let r = 0; r < RUNS; r++) for (const [name, once] of Object.entries(paths)) runs[name].push(await perCall(once));
  const ratios = runs.adapter.map((x, i) => x / (runs.callTool[i] + runs.langchainTool[i]));
  const ratio = median(ratios);
  const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)]));
  console.log('');
  console.log(`toolwright/langchain bench, ${title} · Node ${process.version} · @langchain/core ${require('@langchain/core/package.json').version} · ${RUNS} runs x ${CALLS} calls (median)`);
  console.log(`view.callTool                          ${fmt(m.callTool)} us/call`);
  console.log(`LangChain tool() invoke(ToolCall)      ${fmt(m.langchainTool)} us/call`);
  console.log(`sum (the two paths the adapter joins)  ${fmt(m.callTool + m.langchainTool)} us/call`);
  console.log(`toLangChainTools invoke(ToolCall)      ${fmt(m.adapter)} us/call  ->  ${fmt(ratio)}x the sum (bar <= 1.10x) ${ratio <= 1.1 ? 'ok' : 'MISSED'}`);
  console.log(`adapter over callTool alone            ${fmt(m.adapter - m.callTool)} us/call (LangChain's invoke, callbacks, ToolMessage)`);
  console.log(`runs, us: adapter ${runs.adapter.map((x) => fmt(x)).join(' ')} · callTool ${runs.callTool.map((x) => fmt(x)).join(' ')} · tool() ${runs.langchainTool.map((x) => fmt(x)).join(' ')}`);
  return ratio > 1.1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
