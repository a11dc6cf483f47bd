#!/usr/bin/env node
/*
 * Writes corpus.json: malformed tool calls, each with the tool's schema, the text (or object)
 * the model sent, the expected outcome — repaired to exactly `repaired`, or `refused` — and
 * where the failure mode is documented. The expectations are what a careful person would accept
 * as the model's meaning, written here by hand per failure mode; they are never computed by the
 * repair under test. Run: node test/executor/repair-corpus/generate.js
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const SOURCES = {
  trailingComma: ['https://github.com/huggingface/chat-ui/pull/1229', 'https://github.com/dataelement/Clawith/pull/212'],
  singleQuotes: ['https://github.com/NousResearch/atropos/issues/478', 'https://github.com/NousResearch/hermes-agent/pull/1393'],
  malformedMix: ['https://github.com/agentscope-ai/agentscope-java/issues/847'],
  unquotedKeys: ['https://github.com/agentscope-ai/agentscope-java/issues/847', 'https://github.com/khoj-ai/khoj/pull/989'],
  python: ['https://github.com/NousResearch/atropos/issues/478', 'https://github.com/NousResearch/hermes-agent/pull/1393'],
  fence: ['https://github.com/earendil-works/pi/issues/8858', 'https://github.com/langchain-ai/langchain/pull/33012', 'https://github.com/agents-flex/agents-flex/pull/64'],
  comments: ['https://github.com/agentscope-ai/agentscope-java/issues/847'],
  truncated: ['https://github.com/cline/cline/issues/13001', 'https://github.com/lobehub/lobehub/pull/13817', 'https://github.com/MiaAI-Lab/DeepSeek-v4-Flash-DSpark-2x-DGX-Spark/issues/55'],
  missingBrace: ['https://github.com/agentscope-ai/agentscope-java/issues/847', 'https://github.com/netease-lcap/wave-agent/pull/1030'],
  doubleEncoded: ['https://github.com/quarkiverse/quarkus-langchain4j/pull/2642', 'https://github.com/oracle/langchain-oracle/pull/56', 'https://github.com/huggingface/smolagents/pull/1003'],
  numberString: ['https://github.com/AtomicBot-ai/atomic-agent/issues/182', 'https://github.com/mastra-ai/mastra/issues/21492', 'https://github.com/akhileshrangani4/teachanything/pull/510'],
  numberRefused: ['https://github.com/akhileshrangani4/teachanything/pull/510', 'https://github.com/sierra-research/tau2-bench/pull/429'],
  booleanString: ['https://github.com/karthink/gptel/issues/714', 'https://github.com/AtomicBot-ai/atomic-agent/issues/182'],
  jsonInString: ['https://github.com/earendil-works/pi/issues/9931', 'https://github.com/Hmbown/Codewhale/issues/5349', 'https://github.com/HKUDS/nanobot/pull/5314'],
  wrapArray: ['https://github.com/NousResearch/hermes-agent/pull/19717', 'https://github.com/gsd-build/gsd-2/pull/3591'],
  listLike: ['https://github.com/YuGiMob/pi-hashline-edit-pro/pull/36', 'https://github.com/osaurus-ai/vmlx-swift/pull/179'],
  nulls: ['https://github.com/nearai/ironclaw/issues/4642', 'https://github.com/ayunis-core/ayunis-core/pull/1030'],
  ambiguous: ['https://github.com/MoonshotAI/kimi-code/issues/2118', 'https://github.com/HKUDS/nanobot/pull/5314'],
  duplicate: ['https://github.com/josdejong/lossless-json/issues/244', 'https://github.com/zaach/jsonlint/issues/13'],
  invent: ['https://github.com/jaseci-labs/jac/pull/6766', 'https://github.com/mattmezza/humux/issues/77'],
  rename: ['https://github.com/Kilo-Org/kilocode/pull/13446', 'https://github.com/vercel/ai/issues/8240'],
  prose: ['https://github.com/mastra-ai/mastra/pull/13829', 'https://github.com/just-every/code/pull/355'],
};

const TOOLS = {
  get_weather: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      unit: { enum: ['c', 'f'] },
      detailed: { type: 'boolean' },
    },
    required: ['city'],
    additionalProperties: false,
  },
  search_docs: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { type: 'string' } },
      filters: { type: 'object', properties: { from: { type: 'string' }, minScore: { type: 'number' } }, additionalProperties: false },
    },
    required: ['query'],
    additionalProperties: false,
  },
  place_order: {
    type: 'object',
    properties: {
      items: { type: 'array', minItems: 1, items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['sku', 'qty'], additionalProperties: false } },
      express: { type: 'boolean' },
      note: { type: 'string' },
    },
    required: ['items'],
    additionalProperties: false,
  },
  set_value: { type: 'object', properties: { value: { anyOf: [{ type: 'number' }, { type: 'boolean' }] } }, required: ['value'], additionalProperties: false },
  set_amount: { type: 'object', properties: { amount: { anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }] } }, required: ['amount'], additionalProperties: false },
  set_count: { type: 'object', properties: { count: { oneOf: [{ type: 'integer' }, { type: 'number', multipleOf: 0.5 }] } }, required: ['count'], additionalProperties: false },
  label_items: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } }, pinned: { type: 'boolean' } }, required: ['ids'], additionalProperties: false },
  annotate: { type: 'object', properties: { text: { type: 'string' }, comment: { type: ['string', 'null'] } }, required: ['text', 'comment'], additionalProperties: false },
};

const WEATHER = [
  { city: 'Paris' },
  { city: 'Paris', days: 3 },
  { city: 'New York', days: 7, unit: 'f' },
  { city: 'Zürich', detailed: true },
  { city: "Saint-Jean-d'Angély", days: 2 },
  { city: 'Tokyo', days: 14, unit: 'c', detailed: false },
  { city: 'São Paulo', unit: 'c' },
  { city: 'Reykjavík', days: 1, detailed: true },
  { city: 'Cape Town', days: 5 },
  { city: 'Oslo', unit: 'f', detailed: false },
];
const SEARCH = [
  { query: 'jsonrepair', limit: 5 },
  { query: 'tool calling', tags: ['llm', 'json'] },
  { query: 'q', filters: { from: '2024-01-01', minScore: 0.5 } },
  { query: 'latest news', limit: 10, tags: ['news'] },
  { query: 'a, b', filters: { minScore: 1 } },
  { query: 'x' },
];
const ORDERS = [
  { items: [{ sku: 'A1', qty: 2 }] },
  { items: [{ sku: 'A1', qty: 1 }, { sku: 'B2', qty: 3 }], express: true },
  { items: [{ sku: 'C3', qty: 10 }], note: 'leave at door' },
  { items: [{ sku: 'D4', qty: 1 }], express: false, note: 'gift' },
];
const BASE = [...WEATHER.map((a) => ['get_weather', a]), ...SEARCH.map((a) => ['search_docs', a]), ...ORDERS.map((a) => ['place_order', a])];

const cases = [];
function add(mode, tool, input, expected, source, note) {
  const c = { id: `${mode}-${String(cases.filter((x) => x.mode === mode).length + 1).padStart(2, '0')}`, mode, tool, input, expected, source: SOURCES[source] };
  if (note) c.note = note;
  cases.push(c);
}
const repaired = (value) => ({ repaired: value });
const REFUSED = 'refused';

// Python repr / single-quoted JSON of a value
function singleQuoted(value, python) {
  if (value === null) return python ? 'None' : 'null';
  if (value === true) return python ? 'True' : 'true';
  if (value === false) return python ? 'False' : 'false';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => singleQuoted(v, python)).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `'${k}': ${singleQuoted(v, python)}`).join(', ')}}`;
}
function unquotedKeys(value) {
  if (Array.isArray(value)) return `[${value.map(unquotedKeys).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${k}: ${unquotedKeys(v)}`).join(', ')}}`;
  return JSON.stringify(value);
}
const json = (v) => JSON.stringify(v);
const lastValue = (obj) => Object.values(obj)[Object.keys(obj).length - 1];

for (const [tool, args] of BASE) {
  // trailing comma after the last member
  add('trailing-comma', tool, `${json(args).slice(0, -1)},}`, repaired(args), 'trailingComma');
  // single quotes; an apostrophe inside a value is escaped as Python writes it
  add('single-quotes', tool, singleQuoted(args, false), repaired(args), 'singleQuotes');
  // keys without quotes
  add('unquoted-keys', tool, unquotedKeys(args), repaired(args), 'unquotedKeys');
  // a markdown fence around the arguments
  add('markdown-fence', tool, '```json\n' + JSON.stringify(args, null, 2) + '\n```', repaired(args), 'fence');
  // arguments encoded twice: a JSON string holding the object's text
  add('double-encoded', tool, json(json(args)), repaired(args), 'doubleEncoded');
  // cut off inside the first string value: never complete
  const text = json(args);
  const open = text.indexOf(':"') + 2;
  add('cut-mid-string', tool, text.slice(0, open + 1), REFUSED, 'truncated', 'closing the string would pass one character off as the whole value');
  // cut off after the first colon or comma
  add('cut-mid-pair', tool, text.slice(0, text.indexOf(':') + 1), REFUSED, 'truncated');
  // only the final brace missing: complete when the last value is closed (string, literal, array, object), not after a number (it may go on)
  const last = lastValue(args);
  add('missing-final-brace', tool, text.slice(0, -1), typeof last === 'number' ? REFUSED : repaired(args), 'missingBrace', typeof last === 'number' ? 'a number at the cut may be cut itself (3 of 35)' : undefined);
}

// trailing commas inside nested arrays and objects
for (const [tool, args] of BASE.filter(([, a]) => /[\]}]./.test(json(a)))) {
  add('trailing-comma-nested', tool, json(args).replace(/([\]}])(?=.)/g, ',$1').replace(/\[,/g, '[').replace(/\{,/g, '{'), repaired(args), 'trailingComma');
}

// Python literals
const PY = [
  ['get_weather', { city: 'Paris', detailed: true }],
  ['get_weather', { city: 'Oslo', detailed: false, unit: 'c' }],
  ['get_weather', { city: 'Rome', days: 4, detailed: true }],
  ['label_items', { ids: ['a1', 'b2'], pinned: true }],
  ['label_items', { ids: [], pinned: false }],
  ['place_order', { items: [{ sku: 'A1', qty: 1 }], express: true }],
  ['place_order', { items: [{ sku: 'Z9', qty: 4 }], express: false, note: 'ring twice' }],
  ['search_docs', { query: 'python dicts', tags: ['py'] }],
];
for (const [tool, args] of PY) add('python-literals', tool, singleQuoted(args, true), repaired(args), 'python');
// None for an optional parameter means absent
add('python-literals', 'get_weather', "{'city': 'Paris', 'days': None}", repaired({ city: 'Paris' }), 'nulls');
add('python-literals', 'get_weather', "{'city': 'Lyon', 'unit': None, 'detailed': True}", repaired({ city: 'Lyon', detailed: true }), 'nulls');
add('python-literals', 'search_docs', "{'query': 'x', 'limit': None, 'filters': None}", repaired({ query: 'x' }), 'nulls');
add('python-literals', 'annotate', "{'text': 'hi', 'comment': None}", repaired({ text: 'hi', comment: null }), 'nulls', 'the schema accepts null: it stays');
// None for a required parameter: never invented
add('python-literals', 'get_weather', "{'city': None, 'days': 3}", REFUSED, 'invent');
add('python-literals', 'place_order', "{'items': None, 'express': True}", REFUSED, 'invent');

// comments
const COMMENTED = [
  ['get_weather', '{"city": "Paris", // the capital\n "days": 3}', { city: 'Paris', days: 3 }],
  ['get_weather', '{\n  // where\n  "city": "Berlin"\n}', { city: 'Berlin' }],
  ['get_weather', '{"city": "Rome" /* Italy */, "unit": "c"}', { city: 'Rome', unit: 'c' }],
  ['get_weather', '/* weather call */ {"city": "Oslo", "detailed": true}', { city: 'Oslo', detailed: true }],
  ['search_docs', '{"query": "json", // search text\n "limit": 3 // at most three\n}', { query: 'json', limit: 3 }],
  ['search_docs', '{"query": "x", "tags": ["a", /* and */ "b"]}', { query: 'x', tags: ['a', 'b'] }],
  ['place_order', '{"items": [{"sku": "A1", "qty": 2}] // one line\n}', { items: [{ sku: 'A1', qty: 2 }] }],
  ['place_order', '{"items": [{"sku": "A1", /* sku */ "qty": 1}], "express": false}', { items: [{ sku: 'A1', qty: 1 }], express: false }],
  ['label_items', '{"ids": ["x"], // ids\n"pinned": true}', { ids: ['x'], pinned: true }],
  ['get_weather', '{"city": "Nice", "days": 2} // done', { city: 'Nice', days: 2 }],
];
for (const [tool, input, args] of COMMENTED) add('comments', tool, input, repaired(args), 'comments');

// a mix of faults in one call
const MIXED = [
  ['get_weather', "```json\n{'city': 'Paris', 'days': 3,}\n```", { city: 'Paris', days: 3 }],
  ['get_weather', '{city: "Madrid", unit: \'c\',}', { city: 'Madrid', unit: 'c' }],
  ['search_docs', "{query: 'rust', tags: ['a', 'b',], limit: 2,}", { query: 'rust', tags: ['a', 'b'], limit: 2 }],
  ['place_order', "{items: [{sku: 'A1', qty: 2,},], express: True}", { items: [{ sku: 'A1', qty: 2 }], express: true }],
  ['get_weather', '```\n{"city": "Lima", // Peru\n"detailed": false,}\n```', { city: 'Lima', detailed: false }],
  ['label_items', "{'ids': ['q1', 'q2',], 'pinned': False,}", { ids: ['q1', 'q2'], pinned: false }],
];
for (const [tool, input, args] of MIXED) add('mixed-syntax', tool, input, repaired(args), 'malformedMix');

// cut off: more shapes (each refused)
const CUT = [
  ['get_weather', '{"city": "Paris", "days": 3'],
  ['get_weather', '{"city": "Paris", "days": 1'],
  ['get_weather', '{"city": "Paris", "days": '],
  ['get_weather', '{"city": "Paris",'],
  ['get_weather', '{"city": "Paris", "da'],
  ['get_weather', '{"city": "Paris", "unit": "'],
  ['get_weather', '{"city": "Paris", "detailed": tr'],
  ['get_weather', '{"city": "San Francis'],
  ['get_weather', "{'city': 'Par"],
  ['get_weather', '```json\n{"city": "Par'],
  ['search_docs', '{"query": "x", "tags": ["llm", "js'],
  ['search_docs', '{"query": "x", "tags": ["llm", "json"'],
  ['search_docs', '{"query": "x", "tags": ["llm",'],
  ['search_docs', '{"query": "x", "filters": {"from": "2024-01-01", "minScore": 0.5'],
  ['search_docs', '{"query": "x", "filters": {"from": "2024-01-01"'],
  ['search_docs', '{"query": "x", "limit": 1'],
  ['place_order', '{"items": [{"sku": "A1", "qty": 2}'],
  ['place_order', '{"items": [{"sku": "A1", "qty": 2}, {"sku": "B2"'],
  ['place_order', '{"items": [{"sku": "A1", "qty": 2}], "note": "leave at the'],
  ['place_order', '{"items": [{"sku": "A1", "qty": 2}], "note": "say \\"hi'],
  ['label_items', '{"ids": ["a", "b"'],
  ['label_items', '{"ids": ['],
  ['get_weather', '{"city": "Paris", "days": -'],
  ['get_weather', '{"city": "Paris", "days": 1e'],
];
for (const [tool, input] of CUT) add('cut-off', tool, input, REFUSED, 'truncated');

// numbers as strings
const NUMS = [
  ['get_weather', { city: 'Paris', days: '3' }, { city: 'Paris', days: 3 }],
  ['get_weather', { city: 'Paris', days: '14' }, { city: 'Paris', days: 14 }],
  ['get_weather', { city: 'Paris', days: '1' }, { city: 'Paris', days: 1 }],
  ['get_weather', { city: 'Paris', days: '2.0' }, { city: 'Paris', days: 2 }],
  ['get_weather', { city: 'Paris', days: '5e0' }, { city: 'Paris', days: 5 }],
  ['search_docs', { query: 'x', limit: '500' }, { query: 'x', limit: 500 }],
  ['search_docs', { query: 'x', limit: '10', tags: ['a'] }, { query: 'x', limit: 10, tags: ['a'] }],
  ['search_docs', { query: 'x', filters: { minScore: '0.75' } }, { query: 'x', filters: { minScore: 0.75 } }],
  ['search_docs', { query: 'x', filters: { minScore: '-1.5' } }, { query: 'x', filters: { minScore: -1.5 } }],
  ['search_docs', { query: 'x', filters: { minScore: '1e-3' } }, { query: 'x', filters: { minScore: 0.001 } }],
  ['place_order', { items: [{ sku: 'A1', qty: '2' }] }, { items: [{ sku: 'A1', qty: 2 }] }],
  ['place_order', { items: [{ sku: 'A1', qty: '1' }, { sku: 'B2', qty: '3' }] }, { items: [{ sku: 'A1', qty: 1 }, { sku: 'B2', qty: 3 }] }],
  ['set_value', { value: '42' }, { value: 42 }],
  ['set_value', { value: '-0.5' }, { value: -0.5 }],
  ['set_amount', { amount: '[1, 2.5]' }, { amount: [1, 2.5] }],
];
for (const [tool, input, args] of NUMS) add('number-as-string', tool, json(input), repaired(args), 'numberString');
// the same, sent as an object rather than text (SDK adapters, MCP)
for (const [tool, input, args] of NUMS.slice(0, 6)) add('number-as-string-object', tool, input, repaired(args), 'numberString');
// strings that are not exactly a number in JSON syntax (or not an integer where one is wanted)
const NOT_NUMS = ['3 days', ' 3', '3 ', '3.5', 'three', '', '0x3', '+3', '03', '1,000', 'NaN', 'Infinity', '3.', '-', '١٢', '1e400', '9007199254740993', '½'];
for (const s of NOT_NUMS) add('number-refused', 'get_weather', json({ city: 'Paris', days: s }), REFUSED, 'numberRefused');
add('number-refused', 'search_docs', json({ query: 'x', filters: { minScore: '1e400' } }), REFUSED, 'numberRefused', 'not a finite number');
add('number-refused', 'search_docs', json({ query: 'x', filters: { minScore: '0.5 ' } }), REFUSED, 'numberRefused');

// booleans as strings
const BOOLS = [
  ['get_weather', { city: 'Paris', detailed: 'true' }, { city: 'Paris', detailed: true }],
  ['get_weather', { city: 'Paris', detailed: 'false' }, { city: 'Paris', detailed: false }],
  ['get_weather', { city: 'Paris', days: '2', detailed: 'true' }, { city: 'Paris', days: 2, detailed: true }],
  ['place_order', { items: [{ sku: 'A1', qty: 1 }], express: 'true' }, { items: [{ sku: 'A1', qty: 1 }], express: true }],
  ['place_order', { items: [{ sku: 'A1', qty: 1 }], express: 'false' }, { items: [{ sku: 'A1', qty: 1 }], express: false }],
  ['label_items', { ids: ['a'], pinned: 'true' }, { ids: ['a'], pinned: true }],
  ['label_items', { ids: ['a'], pinned: 'false' }, { ids: ['a'], pinned: false }],
  ['set_value', { value: 'true' }, { value: true }],
  ['set_value', { value: 'false' }, { value: false }],
];
for (const [tool, input, args] of BOOLS) add('boolean-as-string', tool, json(input), repaired(args), 'booleanString');
for (const s of ['True', 'FALSE', 'yes', 'no', '1', '0', 'on', ' true', 'false ', 't']) add('boolean-refused', 'get_weather', json({ city: 'Paris', detailed: s }), REFUSED, 'booleanString');

// JSON objects and arrays written inside strings
const INNER = [
  ['search_docs', { query: 'x', filters: '{"from": "2024-01-01", "minScore": 0.5}' }, { query: 'x', filters: { from: '2024-01-01', minScore: 0.5 } }],
  ['search_docs', { query: 'x', tags: '["llm", "json"]' }, { query: 'x', tags: ['llm', 'json'] }],
  ['search_docs', { query: 'x', tags: '[]' }, { query: 'x', tags: [] }],
  ['search_docs', { query: 'x', filters: '{}' }, { query: 'x', filters: {} }],
  ['search_docs', { query: 'x', filters: '{"minScore": "0.5"}' }, { query: 'x', filters: { minScore: 0.5 } }],
  ['place_order', { items: '[{"sku": "A1", "qty": 2}]' }, { items: [{ sku: 'A1', qty: 2 }] }],
  ['place_order', { items: '[{"sku": "A1", "qty": "2"}]', express: 'true' }, { items: [{ sku: 'A1', qty: 2 }], express: true }],
  ['place_order', { items: ['{"sku": "A1", "qty": 2}', '{"sku": "B2", "qty": 1}'] }, { items: [{ sku: 'A1', qty: 2 }, { sku: 'B2', qty: 1 }] }],
  ['place_order', { items: ' [{"sku": "A1", "qty": 2}] ' }, { items: [{ sku: 'A1', qty: 2 }] }],
  ['label_items', { ids: '["a1", "b2"]' }, { ids: ['a1', 'b2'] }],
  ['label_items', { ids: '["a1"]', pinned: 'false' }, { ids: ['a1'], pinned: false }],
  ['set_amount', { amount: '[3]' }, { amount: [3] }],
];
for (const [tool, input, args] of INNER) add('json-in-string', tool, json(input), repaired(args), 'jsonInString');
const INNER_REFUSED = [
  ['search_docs', { query: 'x', filters: '{"from": "2024' }, 'the inner text is cut off'],
  ['search_docs', { query: 'x', filters: "{'from': '2024-01-01'}" }, 'inner text is not strict JSON'],
  ['search_docs', { query: 'x', filters: 'from=2024-01-01' }, undefined],
  ['search_docs', { query: 'x', tags: '["llm", "json"' }, 'the inner text is cut off'],
  ['search_docs', { query: 'x', tags: '[1, 2]' }, 'the inner array holds numbers where strings are wanted; wrapping the text would be a second reading'],
  ['place_order', { items: '{"sku": "A1"}' }, 'qty is missing'],
  ['place_order', { items: '[{"sku": "A1", "qty": 2}' }, 'the inner text is cut off'],
  ['label_items', { ids: '"a1"' }, undefined],
];
for (const [tool, input, note] of INNER_REFUSED) add('json-in-string-refused', tool, json(input), REFUSED, 'jsonInString', note);
// a string parameter that holds JSON text stays a string (valid: never touched)

// a single value where an array of such values is wanted
const WRAP = [
  ['label_items', { ids: 'a1' }, { ids: ['a1'] }],
  ['label_items', { ids: 'order-17', pinned: true }, { ids: ['order-17'], pinned: true }],
  ['search_docs', { query: 'x', tags: 'llm' }, { query: 'x', tags: ['llm'] }],
  ['search_docs', { query: 'x', tags: 'machine learning' }, { query: 'x', tags: ['machine learning'] }],
  ['place_order', { items: { sku: 'A1', qty: 2 } }, { items: [{ sku: 'A1', qty: 2 }] }],
  ['place_order', { items: { sku: 'A1', qty: '2' }, express: 'false' }, { items: [{ sku: 'A1', qty: 2 }], express: false }],
];
for (const [tool, input, args] of WRAP) add('single-to-array', tool, json(input), repaired(args), 'wrapArray');
const WRAP_REFUSED = [
  ['search_docs', { query: 'x', tags: 'llm, json' }, 'may be a list of two'],
  ['search_docs', { query: 'x', tags: 'llm;json' }, 'may be a list of two'],
  ['search_docs', { query: 'x', tags: 'llm\njson' }, 'may be a list of two'],
  ['label_items', { ids: '[a1, b2]' }, 'an unquoted list: two readings'],
  ['label_items', { ids: 5 }, 'a number is not a string id'],
  ['place_order', { items: { sku: 'A1' } }, 'qty is missing'],
];
for (const [tool, input, note] of WRAP_REFUSED) add('single-to-array-refused', tool, json(input), REFUSED, 'listLike', note);

// unions: one reading repairs, two readings refuse
const UNIONS = [
  ['set_value', { value: '3.25' }, repaired({ value: 3.25 }), undefined],
  ['set_value', { value: 'true' }, repaired({ value: true }), undefined],
  ['set_value', { value: 'maybe' }, REFUSED, undefined],
  ['set_value', { value: '[1]' }, REFUSED, undefined],
  ['set_amount', { amount: '5' }, REFUSED, 'a number or an array of one number: two readings'],
  ['set_amount', { amount: '0.5' }, REFUSED, 'a number or an array of one number: two readings'],
  ['set_amount', { amount: true }, REFUSED, undefined],
  ['set_amount', { amount: '[1, "2"]' }, repaired({ amount: [1, 2] }), 'one reading: the array branch, its items coerced'],
  ['set_count', { count: '2' }, REFUSED, 'both branches read it: oneOf would fail, and choosing is choosing'],
  ['set_count', { count: '2.5' }, repaired({ count: 2.5 }), 'only the multipleOf-0.5 branch reads it'],
  ['set_count', { count: '2.25' }, REFUSED, undefined],
  ['set_value', { value: '' }, REFUSED, undefined],
  ['set_value', { value: null }, REFUSED, 'null for a required parameter'],
];
for (const [tool, input, expected, note] of UNIONS) add('union', tool, json(input), expected, 'ambiguous', note);

// duplicate keys in malformed text: which one did the model mean?
const DUPS = [
  ['get_weather', '{"city": "Paris", "city": "Rome",}'],
  ['get_weather', "{'city': 'Paris', 'days': 2, 'days': 3}"],
  ['get_weather', '{city: "Paris", city: "Paris"}'],
  ['search_docs', '{"query": "a", "filters": {"minScore": 1, "minScore": 2,}}'],
  ['place_order', "{'items': [{'sku': 'A1', 'qty': 1, 'qty': 2}]}"],
  ['label_items', '```json\n{"ids": ["a"], "ids": ["b"]}\n```'],
  ['get_weather', '{"city": "Paris", // first\n"city": "Lyon"}'],
  ['search_docs', "{query: 'x', limit: 2, limit: 2,}"],
];
for (const [tool, input] of DUPS) add('duplicate-keys', tool, input, REFUSED, 'duplicate');

// never invent a required value
const MISSING = [
  ['get_weather', "{'days': 3}"],
  ['get_weather', '{days: 3, unit: "c",}'],
  ['get_weather', '```json\n{"unit": "c"}\n```'],
  ['search_docs', "{'limit': 5}"],
  ['place_order', "{'express': True}"],
  ['place_order', "{'items': [{'sku': 'A1'}]}"],
  ['label_items', '{pinned: true}'],
  ['annotate', "{'text': 'hi'}"],
  ['get_weather', '{}'],
  ['get_weather', ''],
];
for (const [tool, input] of MISSING) add('missing-required', tool, input, REFUSED, 'invent');

// text around the JSON, tokens, placeholders, other shapes: refused
const PROSE = [
  ['get_weather', 'Here are the arguments: {"city": "Paris"}'],
  ['get_weather', '{"city": "Paris"} Let me know if you need more.'],
  ['get_weather', '{"city": "Paris"}{"city": "Rome"}'],
  ['get_weather', '{"city": "Paris"}<|call|>'],
  ['get_weather', '{"city": "Paris", "days": ?}'],
  ['get_weather', '[{"city": "Paris"}]'],
  ['get_weather', '"Paris"'],
  ['get_weather', 'city=Paris&days=3'],
  ['get_weather', '{city="Paris"}'],
  ['get_weather', '{"city": "say "hi" Paris"}'],
  ['get_weather', '{"city": "Paris", "days": three}'],
];
for (const [tool, input] of PROSE) add('other-shapes', tool, input, REFUSED, 'prose');
// elided or side-by-side items: refused
add('other-shapes', 'search_docs', '{"query": "x", "tags": ["a" "b"]}', REFUSED, 'python', 'two items, or one ("ab", as Python reads adjacent strings)');
add('other-shapes', 'search_docs', '{"query": "x", "tags": ["a", "b", ...]}', REFUSED, 'truncated', 'the model elided items');
add('other-shapes', 'search_docs', '{"query": "x", "limit": 3, ...}', REFUSED, 'truncated', 'the model elided members');
add('other-shapes', 'get_weather', '{"city": "Par" + "is"}', REFUSED, 'prose', 'an expression, not a value');
// slips that keep every value: repaired
add('other-shapes', 'get_weather', '{"city": "Paris", "days": 3}}', repaired({ city: 'Paris', days: 3 }), 'malformedMix', 'a stray closing brace');
add('other-shapes', 'get_weather', '{"city": "Paris" "days": 3}', repaired({ city: 'Paris', days: 3 }), 'malformedMix', 'a missing comma between members');
add('other-shapes', 'get_weather', '{"city": "Paris", "days": undefined,}', repaired({ city: 'Paris' }), 'nulls', 'undefined for an optional means absent');
// an unquoted one-word string value: its text is the value
add('other-shapes', 'get_weather', '{"city": Paris}', repaired({ city: 'Paris' }), 'malformedMix');

// misspelt tool names: never renamed (the call is for a tool that does not exist)
for (const name of ['get_wether', 'getWeather', 'GET_WEATHER', 'weather', 'search-docs']) add('tool-name', name, '{"city": "Paris",}', REFUSED, 'rename');

fs.writeFileSync(path.join(__dirname, 'corpus.json'), JSON.stringify({ comment: 'Generated by generate.js (edit there). Each case: the tool (schemas under "tools"), what the model sent, the expected outcome, the sources that document the failure mode.', tools: TOOLS, cases }, null, 1) + '\n');
console.log(`${cases.length} cases, ${cases.filter((c) => c.expected !== REFUSED).length} expected repaired`);
