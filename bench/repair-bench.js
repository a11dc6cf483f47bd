#!/usr/bin/env node
'use strict';
/**
 * Argument repair bench.
 *
 *  (a) The cost of `repair: 'safe'` on a valid call: `callTool` of `get_weather` from the raw JSON
 *      `{"city":"Paris","days":3}`, a toolkit with repair against one without, each in fresh Node
 *      processes (a second toolkit in one process runs ~10 % slower whatever its options, so an
 *      in-process comparison measures the order), alternating, CPU time per call, median of the
 *      processes. Repair runs only after a parse or validation failure, so the bar is: within 1.05x.
 *  (b) What a repaired call costs: `{'city': 'Paris', 'days': '3',}` (jsonrepair, then a number
 *      coercion) against the valid call. Reported, no bar.
 *  (c) The longest the event loop is blocked by one call: a 64 KiB malformed text (the largest
 *      repair is attempted on) repaired; 64 KiB of ~1,900 members (under the 2,000 strings and
 *      numbers a repair reads), each needing a repair; and a 1 MB text (refused without a repair
 *      attempt). Bars: 50 ms, 100 ms, 50 ms.
 *
 *   npx tsc -p tsconfig.build.json && node bench/repair-bench.js
 *   RUNS=7 CALLS=200000 node bench/repair-bench.js
 *
 * Exits with status 1 when a bar is missed.
 */
const path = require('node:path');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const { weatherTool, answer } = require('./weather-tool');

const dist = path.resolve(process.env.TOOLWRIGHT_DIST || path.join(__dirname, '..', 'dist'));
const entry = path.join(dist, 'index.js');
if (!fs.existsSync(entry)) {
  console.error(`repair-bench: ${entry} not found; run \`npx tsc -p tsconfig.build.json\` first (or set TOOLWRIGHT_DIST).`);
  process.exit(1);
}
const { Toolkit } = require(entry);

const RUNS = Number(process.env.RUNS || 7);
const CALLS = Number(process.env.CALLS || 200_000);
const VALID = '{"city":"Paris","days":3}';
const MALFORMED = "{'city': 'Paris', 'days': '3',}";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, digits = 2) => n.toFixed(digits);

function toolkitWith(options) {
  const toolkit = new Toolkit(options);
  toolkit.registerTool(weatherTool);
  return toolkit;
}

/** CPU time of this process per call, in us (steadier than wall time on a shared machine). */
async function perCall(toolkit, raw, n) {
  const call = { id: 'call_1', name: 'get_weather', arguments: raw };
  let check = 0;
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) check += (await toolkit.callTool(call)).forLLM.length;
  const used = process.cpuUsage(cpu);
  if (check === 0) throw new Error('no result');
  return (used.user + used.system) / n;
}

async function expectAnswer(toolkit, raw) {
  const result = await toolkit.callTool({ id: 'c', name: 'get_weather', arguments: raw });
  if (result.isError || result.forLLM !== answer('Paris', 3)) throw new Error(`unexpected result for ${raw}: ${JSON.stringify(result)}`);
}

/** The time one call takes, start to answer (the event loop is busy for at most this long). */
async function once(toolkit, raw) {
  const t0 = performance.now();
  const result = await toolkit.callTool({ id: 'big', name: 'get_weather', arguments: raw });
  return { ms: performance.now() - t0, result };
}

/** us CPU per valid call of a fresh toolkit in this process (`--valid=safe|off`). */
async function validInProcess(mode) {
  const toolkit = toolkitWith(mode === 'safe' ? { repair: 'safe' } : {});
  await expectAnswer(toolkit, VALID);
  await perCall(toolkit, VALID, 50_000); // warm-up (JIT)
  return perCall(toolkit, VALID, CALLS);
}

function validInChild(mode) {
  const { execFileSync } = require('node:child_process');
  return Number(execFileSync(process.execPath, [__filename, `--valid=${mode}`], { env: process.env, encoding: 'utf8' }));
}

async function main() {
  const only = process.argv.find((a) => a.startsWith('--valid='));
  if (only) {
    process.stdout.write(String(await validInProcess(only.slice('--valid='.length))));
    return;
  }
  const offRuns = [];
  const safeRuns = [];
  for (let r = 0; r < RUNS; r++) {
    // alternate the order so that drift hits both alike
    for (const mode of r % 2 === 0 ? ['off', 'safe'] : ['safe', 'off']) (mode === 'safe' ? safeRuns : offRuns).push(validInChild(mode));
  }
  const ratio = median(safeRuns) / median(offRuns);

  const safe = toolkitWith({ repair: 'safe' });
  await expectAnswer(safe, MALFORMED);
  await perCall(safe, MALFORMED, 5_000); // warm-up (JIT)
  const repairedRuns = [];
  for (let r = 0; r < RUNS; r++) repairedRuns.push(await perCall(safe, MALFORMED, 2_000));

  const city = 'x'.repeat(65_536 - 40);
  const largest = await once(safe, `{'city': '${city}', 'days': 3,}`);
  if (largest.result.isError) throw new Error(`the 64 KiB text was not repaired: ${largest.result.forLLM.slice(0, 200)}`);
  // the most work one repair may do: 64 KiB of ~1,900 members, each a bare key and a quoted number to read as one
  const wide = new Toolkit({ repair: 'safe' });
  wide.registerTool({ name: 'get_weather', description: 'Takes counts', parameters: { type: 'object', properties: {}, additionalProperties: { type: 'integer' } }, execute: () => 'ok' });
  const members = [];
  for (let i = 0, size = 0; size < 64_000; i++) {
    members.push(`${'k'.repeat(20 + (i % 20))}${i}: '${i % 9}'`);
    size += members[members.length - 1].length + 2;
  }
  const widest = await once(wide, `{${members.join(', ')},}`);
  if (widest.result.isError) throw new Error(`the wide text was not repaired: ${widest.result.forLLM.slice(0, 200)}`);
  const huge = await once(safe, `{'city': '${'x'.repeat(1_048_576)}', 'days': 3,}`);
  if (huge.result.error?.code !== 'MALFORMED_ARGUMENTS') throw new Error('the 1 MB text was not refused');

  const okRatio = ratio <= 1.05;
  const okBlock = largest.ms < 50 && widest.ms < 100 && huge.ms < 50;
  console.log(`toolwright repair bench · Node ${process.version} · ${RUNS} runs each (median) · dist: ${path.relative(process.cwd(), dist) || dist}`);
  console.log('');
  console.log(`(a) valid call, repair 'safe' vs off: ${fmt(median(safeRuns), 3)} vs ${fmt(median(offRuns), 3)} us CPU/call · ratio ${fmt(ratio, 3)}x (bar <= 1.05x) ${okRatio ? 'ok' : 'NO'}`);
  console.log(`(b) repaired call ${JSON.stringify(MALFORMED)}: ${fmt(median(repairedRuns), 2)} us CPU/call`);
  console.log(
    `(c) one call, start to answer: 64 KiB malformed text repaired in ${fmt(largest.ms, 1)} ms; 64 KiB of ${members.length} members repaired in ` +
      `${fmt(widest.ms, 1)} ms; 1 MB refused in ${fmt(huge.ms, 1)} ms (bars < 50 / 100 / 50 ms) ${okBlock ? 'ok' : 'NO'}`,
  );
  console.log(`(a) runs, us: safe ${safeRuns.map((x) => fmt(x, 3)).join(' ')} · off ${offRuns.map((x) => fmt(x, 3)).join(' ')}`);
  const [load1] = require('node:os').loadavg();
  console.log(`load average (1 min) ${fmt(load1)} on ${require('node:os').cpus().length} CPUs`);
  if (!(okRatio && okBlock)) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
