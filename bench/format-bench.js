'use strict';
// How long one hostile argument blocks the event loop in validation (SECURITY.md, "no input blocks
// the process"): for each string format of ajv-formats, the worst of inputs crafted to make its
// check backtrack, and for `uniqueItems`, arrays of distinct items; in ms per 100 KB of argument.
// Each input is one `toolkit.callTool` (everything synchronous in it blocks), the median of three
// (one when a run takes over a second). Run through `npm run bench` (builds dist/ first).
const { Toolkit } = require('../dist/index.js');

const SIZE = 100_000;
const out = (line) => process.stdout.write(`${line}\n`);
const fill = (piece, size = SIZE) => piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
const namedGroups = Array.from({ length: 12_000 }, (_, i) => `(?<g${i}>)`).join('').slice(0, SIZE);

/** Per format: [label, input] pairs, each crafted against its expression in ajv-formats. */
const HOSTILE_FORMATS = {
  date: [["'1' x 100k", fill('1')], ["date + 'x' x 100k", `2020-01-01${fill('x')}`]],
  time: [["'12:00:00.' + digits + 'x'", `12:00:00.${fill('1')}x`]],
  'date-time': [['fraction of 100k digits + x', `2020-01-01T12:00:00.${fill('1')}x`], ["'1t' x 50k", fill('1t')]],
  'iso-time': [['fraction of 100k digits + x', `12:00:00.${fill('1')}x`]],
  'iso-date-time': [['fraction of 100k digits + x', `2020-01-01T12:00:00.${fill('1')}x`], ["' ' x 100k", fill(' ')]],
  duration: [["'P' + digits + 'x'", `P${fill('1')}x`], ["'PT' + digits + 'x'", `PT${fill('1')}x`]],
  uri: [["'a://' + 'a:' x 50k + ' '", `a://${fill('a:')} `], ["'a:' + '/' x 100k + ' '", `a:${fill('/')} `], ["'a://' + '%00' x 33k + ' '", `a://${fill('%00')} `]],
  'uri-reference': [["'a' x 100k + ' '", `${fill('a')} `], ["'//' + 'a:' x 50k + ' '", `//${fill('a:')} `], ["'a/' x 50k + ' '", `${fill('a/')} `]],
  'uri-template': [["'{' + 'a,' x 50k + ' '", `{${fill('a,')} `], ["'{a}' x 33k + ' '", `${fill('{a}')} `]],
  url: [["'ftp://' + 'a:' x 50k", `ftp://${fill('a:')}`], ["'http://' + ':' x 100k", `http://${fill(':')}`], ["'http://' + 'a-' x 50k + '!'", `http://${fill('a-')}!`], ["'http://' + 'x@a.c/' x 16.7k", `http://${fill('x@a.c/')}`]],
  email: [["'a@' + 'a' x 100k + '!'", `a@${fill('a')}!`], ["'a@' + 'a.a' x 33k + '-'", `a@${fill('a.a')}-`], ["'a.' x 50k + '@'", `${fill('a.')}@`]],
  hostname: [["'a' x 100k", fill('a')], ["'a-' x 50k", fill('a-')]],
  ipv4: [["'1.' x 50k", fill('1.')]],
  ipv6: [["'1:' x 50k", fill('1:')], ["'::' + '1:' x 50k", `::${fill('1:')}`]],
  regex: [["'(?:a|' x 20k", fill('(?:a|')], ["'(' x 50k + ')' x 50k", `${fill('(', SIZE / 2)}${fill(')', SIZE / 2)}`], ['12k named groups', namedGroups]],
  uuid: [["'a' x 100k", fill('a')]],
  'json-pointer': [["'/' + 'a' x 100k + '~'", `/${fill('a')}~`], ["'/' x 100k + '~'", `${fill('/')}~`]],
  'json-pointer-uri-fragment': [["'#' + '/a' x 50k + '~'", `#${fill('/a')}~`]],
  'relative-json-pointer': [["'0' + '/a' x 50k + '~'", `0${fill('/a')}~`]],
  byte: [["'AAAA' x 25k + '!'", `${fill('AAAA')}!`], ["'AAA\\n' x 25k", fill('AAA\n')]],
  password: [["'a' x 100k", fill('a')]],
  binary: [["'a' x 100k", fill('a')]],
};

function toolkitFor(schema) {
  const toolkit = new Toolkit();
  toolkit.registerTool({ name: 'check', description: 'Check', parameters: { type: 'object', properties: { value: schema } }, execute: () => 'ok' });
  return toolkit;
}

async function blockMs(toolkit, value) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    const result = await toolkit.callTool({ id: 'c', name: 'check', arguments: { value } });
    runs.push({ ms: Number(process.hrtime.bigint() - start) / 1e6, code: result.error?.code ?? 'ok' });
    if (runs[i].ms > 1_000) break;
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor((runs.length - 1) / 2)];
}

const row = (name, label, kb, ms, code) => out(`${name.padEnd(26)} ${label.padEnd(36)} ${`${kb.toFixed(0)} KB`.padStart(7)} ${ms.toFixed(1).padStart(10)} ${(ms * (100 / kb)).toFixed(1).padStart(12)}  ${code}`);

async function formats() {
  out(`${'format'.padEnd(26)} ${'worst input'.padEnd(36)} ${'size'.padStart(7)} ${'ms'.padStart(10)} ${'ms / 100 KB'.padStart(12)}  result`);
  for (const [format, inputs] of Object.entries(HOSTILE_FORMATS)) {
    const toolkit = toolkitFor({ type: 'string', format });
    await toolkit.callTool({ id: 'w', name: 'check', arguments: { value: 'x' } }); // compiles: only validation is measured
    let worst;
    for (const [label, value] of inputs) {
      const measured = { label, kb: value.length / 1000, ...(await blockMs(toolkit, value)) };
      if (worst === undefined || measured.ms / measured.kb > worst.ms / worst.kb) worst = measured;
    }
    row(format, worst.label, worst.kb, worst.ms, worst.code);
  }
  out('int32, int64, float, double: checks of a number, constant time');
}

async function uniqueItems() {
  const cases = [
    ['10k distinct objects, items: object', { type: 'array', items: { type: 'object' }, uniqueItems: true }, Array.from({ length: 10_000 }, (_, id) => ({ id }))],
    ['20k distinct strings, no items', { type: 'array', uniqueItems: true }, Array.from({ length: 20_000 }, (_, i) => `s${i}`)],
    ['5k distinct nested arrays', { type: 'array', uniqueItems: true }, Array.from({ length: 5_000 }, (_, i) => [{ a: i, b: [i, 'x'] }])],
  ];
  out('');
  for (const [label, schema, value] of cases) {
    const toolkit = toolkitFor(schema);
    await toolkit.callTool({ id: 'w', name: 'check', arguments: { value: [] } });
    const { ms, code } = await blockMs(toolkit, value);
    row('uniqueItems', label, JSON.stringify(value).length / 1000, ms, code);
  }
}

async function main() {
  await formats();
  await uniqueItems();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
