#!/usr/bin/env node
'use strict';
/**
 * Preset redaction bench: what keeping preset values out of results costs per call.
 *
 * Per-call time of `callTool` (raw JSON arguments to ToolResult, `events$` not observed) for
 * AgentTools with one string preset (a password with a quote and a backslash), against the same
 * tool without a preset, in the same process, interleaved run by run after a JIT warm-up:
 *   text        returns a short string without the secret
 *   object      returns { id, name, tags } (serialised to JSON, kept as data)
 *   leaky-text  returns a string holding the secret (redacted)
 *   leaky-obj   returns { key: secret, nested: [secret] } (redacted before and after serialisation)
 *   rotating    returns text; the preset is a function giving a fresh token on every call
 *   number      returns text; the preset is a number (1234567)
 *
 * Then the redaction of one text alone (`createRedactor({ secrets }).text`, the scrub every result
 * text goes through), for a 300-character text without the secret and one holding it URL-encoded,
 * with a password (quote, backslash, space, slash: it has many encoded forms) and a plain API key.
 *
 *   npx tsc -p tsconfig.build.json && node bench/secrets-bench.js
 *   TOOLWRIGHT_DIST=/tmp/twdist RUNS=7 CALLS=200000 node bench/secrets-bench.js
 */
const { performance } = require('node:perf_hooks');

const dist = require('node:path').resolve(process.env.TOOLWRIGHT_DIST || `${__dirname}/../dist`);
let toolwright;
try {
  toolwright = require(dist);
} catch (error) {
  console.error(`secrets-bench: cannot load ${dist} (${error.message}); run \`npx tsc -p tsconfig.build.json\` first.`);
  process.exit(1);
}
const { Toolkit, createRedactor } = toolwright;
const { Container } = require('inversify');
const runs = Number(process.env.RUNS || 5);
const calls = Number(process.env.CALLS || 100_000);
const SECRET = 'pa"ss\\word-7f3a9c2e1b';
const middle = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

let token = 0;
const behaviours = {
  text: () => 'ok: 3 rows',
  object: () => ({ id: 42, name: 'report', tags: ['a', 'b'] }),
  'leaky-text': (key) => `used ${key}`,
  'leaky-obj': (key) => ({ key, nested: [key] }),
  rotating: () => 'ok: 3 rows',
  number: () => 'ok: 3 rows',
};
const presets = {
  rotating: () => `tok-7f3a9c2e1b-${++token}`,
  number: 1_234_567,
};

function toolkitFor(name, withPreset) {
  const toolkit = new Toolkit({ container: new Container() });
  const respond = behaviours[name];
  toolkit.registerTool(
    {
      name: 't',
      description: 'bench tool',
      parameters: { type: 'object', properties: { q: { type: 'string' }, key: { type: 'string' } }, required: ['q'] },
      execute: (args) => respond(args.key ?? 'no-key-given'),
    },
    withPreset ? { presets: { t: { key: name in presets ? presets[name] : SECRET } } } : {},
  );
  return toolkit;
}

async function perCall(toolkit) {
  const call = { id: 'c', name: 't', arguments: '{"q":"x"}' };
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await toolkit.callTool(call);
  return ((performance.now() - t0) * 1000) / calls;
}

(async () => {
  console.log(`calls per run: ${calls}, runs: ${runs} (medians, µs per call)`);
  console.log('scenario     no preset   with preset   overhead');
  for (const name of Object.keys(behaviours)) {
    const plain = toolkitFor(name, false);
    const preset = toolkitFor(name, true);
    const leaked = JSON.stringify(await preset.callTool({ id: 'c', name: 't', arguments: '{"q":"x"}' }));
    if (leaked.includes('7f3a9c2e1b')) throw new Error(`${name}: the preset leaked: ${leaked}`);
    await perCall(plain);
    await perCall(preset);
    const a = [];
    const b = [];
    for (let r = 0; r < runs; r++) {
      a.push(await perCall(plain));
      b.push(await perCall(preset));
    }
    const [ma, mb] = [middle(a), middle(b)];
    console.log(`${name.padEnd(12)} ${ma.toFixed(3).padStart(9)} ${mb.toFixed(3).padStart(13)} ${(mb - ma).toFixed(3).padStart(10)}`);
  }
  console.log('\nredaction of one 300-character text (median ns per text)');
  console.log('secret                         clean text   with the secret (URLSearchParams form)');
  const filler = 'GET https://api.example/v1/reports?month=2026-10&format=json returned 200 in 41 ms; '.repeat(4).slice(0, 300);
  for (const secret of [SECRET + ' /x', 'sk-live-7f3a9c2e1b0d4e5f']) {
    const redactor = createRedactor({ secrets: [secret] });
    const leaky = `${filler.slice(0, 150)}?${new URLSearchParams({ key: secret })}${filler.slice(150)}`;
    if (redactor.text(leaky).includes(secret.slice(0, 8))) throw new Error(`the secret leaked: ${redactor.text(leaky)}`);
    const perText = (text) => {
      const n = calls * 10;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) redactor.text(text);
      return ((performance.now() - t0) * 1e6) / n;
    };
    perText(filler);
    perText(leaky);
    const clean = [];
    const dirty = [];
    for (let r = 0; r < runs; r++) {
      clean.push(perText(filler));
      dirty.push(perText(leaky));
    }
    console.log(`${JSON.stringify(secret).padEnd(30)} ${middle(clean).toFixed(0).padStart(10)} ${middle(dirty).toFixed(0).padStart(17)}`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
