#!/usr/bin/env node
'use strict';
/**
 * Streaming bench: the CPU cost per event of `streamToolLoop` (OpenAIProvider over the official
 * `openai` client, Chat Completions `stream: true`) against iterating the same client's raw
 * stream, from the same local server (127.0.0.1, port 0) sending the same chunks, interleaved run
 * by run after a warm-up; medians shown, the overhead from the best run of each side. Each turn: EVENTS text deltas and the finish.
 * Then the loop's own cost without a network: SCRIPTED text deltas from a `ScriptedProvider`
 * stream against iterating the same events. Bar: the loop <= 1.5x the raw stream (the ratio is
 * steadier than the difference on a loaded machine).
 *
 *   npm run bench                                  # builds dist/ and runs every bench
 *   npx tsc -p tsconfig.build.json && node bench/stream-bench.js
 *   RUNS=9 EVENTS=5000 node bench/stream-bench.js
 *
 * Exits with status 1 when the bar is missed.
 */
const path = require('node:path');
const fs = require('node:fs');
const http = require('node:http');

const dist = path.resolve(process.env.TOOLWRIGHT_DIST || path.join(__dirname, '..', 'dist'));
if (!fs.existsSync(path.join(dist, 'providers/openai/index.js'))) {
  console.error(`stream-bench: ${dist}/providers/openai/index.js not found; run \`npx tsc -p tsconfig.build.json\` first.`);
  process.exit(1);
}
const { ScriptedProvider, Toolkit, streamToolLoop } = require(path.join(dist, 'index.js'));
const { OpenAIProvider } = require(path.join(dist, 'providers/openai/index.js'));
const OpenAI = require('openai').default;

const RUNS = Number(process.env.RUNS || 15);
const EVENTS = Number(process.env.EVENTS || 5000);
const BAR_RATIO = 1.5;

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
// the whole reply written at once: the server's cost is the same for both sides
const body = [chunk({ role: 'assistant', content: '' }), ...Array.from({ length: EVENTS }, (_, i) => chunk({ content: `w${i} ` })), chunk({}, 'stop'), 'data: [DONE]\n\n'].join('');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new OpenAI({ apiKey: 'bench', baseURL: `http://127.0.0.1:${server.address().port}/v1`, maxRetries: 0 });
  const toolkit = new Toolkit();
  const provider = new OpenAIProvider(client);
  const messages = [{ role: 'user', content: 'write' }];

  // CPU time of this process (client and server alike), steadier than wall time on a loaded machine
  const cpuMs = (start) => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };

  async function raw() {
    const start = process.cpuUsage();
    let n = 0;
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    for await (const part of stream) if (part.choices[0]?.delta?.content) n++;
    if (n !== EVENTS) throw new Error(`raw: ${n} deltas`);
    return cpuMs(start);
  }
  async function loop() {
    const start = process.cpuUsage();
    let n = 0;
    for await (const event of streamToolLoop({ provider, model: 'm', toolkit }, messages)) if (event.type === 'text_delta') n++;
    if (n !== EVENTS) throw new Error(`loop: ${n} deltas`);
    return cpuMs(start);
  }

  await raw();
  await loop();
  const raws = [];
  const loops = [];
  for (let i = 0; i < RUNS; i++) {
    raws.push(await raw());
    loops.push(await loop());
  }
  server.close();

  const SCRIPTED = 100_000;
  const scripted = [...Array.from({ length: SCRIPTED }, () => ({ type: 'text_delta', text: 'w' })), { type: 'finish' }];
  const source = async function* () {
    yield* scripted;
  };
  const own = [];
  for (let i = 0; i < 5; i++) {
    let start = process.cpuUsage();
    for await (const event of source()) if (event === undefined) throw new Error('no event');
    const direct = cpuMs(start);
    start = process.cpuUsage();
    const scriptedProvider = new ScriptedProvider([ScriptedProvider.chunks(source)]);
    for await (const event of streamToolLoop({ provider: scriptedProvider, model: 'm', toolkit }, messages)) if (event === undefined) throw new Error('no event');
    own.push(((cpuMs(start) - direct) * 1000) / SCRIPTED);
  }
  const rawUs = (median(raws) * 1000) / EVENTS;
  const loopUs = (median(loops) * 1000) / EVENTS;
  // noise on a loaded machine only adds: the best runs of each side are the steadier comparison
  const bestRaw = (Math.min(...raws) * 1000) / EVENTS;
  const bestLoop = (Math.min(...loops) * 1000) / EVENTS;
  const overhead = bestLoop - bestRaw;
  console.log(`raw SDK stream:   ${rawUs.toFixed(2)} µs CPU per event (median of ${RUNS}, ${EVENTS} events)`);
  console.log(`streamToolLoop:   ${loopUs.toFixed(2)} µs CPU per event`);
  console.log(`overhead:         ${overhead.toFixed(2)} µs CPU per event, best runs ${bestRaw.toFixed(2)} → ${bestLoop.toFixed(2)} µs (${(bestLoop / bestRaw).toFixed(2)}×) — bar ≤ ${BAR_RATIO}×`);
  console.log(`loop's own cost: ${median(own).toFixed(2)} µs CPU per event (scripted stream, median of 5, ${SCRIPTED} events)`);
  if (bestLoop / bestRaw > BAR_RATIO) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
