import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import { isUrl } from '../../../src/executor/validation/linear-formats';
import { duplicateItems } from '../../../src/executor/validation/unique-items';
import type { JsonSchema } from '../../../src';
import { SchemaValidators } from '../../../src/executor/validation/validation';

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

/** Pieces that reach every branch of ajv-formats' `url` expression (schemes, user info, IPv4 ranges, labels, ports, paths, Unicode). */
const URL_PIECES = [
  'http://', 'https://', 'ftp://', 'HTTP://', 'httpſ://', 'file://', 'http:/', 'user', 'u:p', ':', '@', '/', '.', '-', '--', 'a', 'Z', 'é', '例',
  'example', 'com', '.com', 'co', 'x', '0', '1', '22', '255', '256', '8080', '123456', '10.1.2.3', '127.0.0.1', '192.168.0.1', '172.16.0.1',
  '172.32.0.1', '169.254.1.1', '1.2.3.4', '223.255.255.254', '224.0.0.1', '1.2.3.255', ' ', '\u3000', '\u00a0', '\u00a1', '\u2028', '\t',
  '\ud83d\ude00', '\ud800', '%20', '?q=1', '#f', '_', '~', 'ſ', 'K',
];

const CURATED_URLS = [
  'http://foo.com/blah_blah', 'http://foo.com/blah_blah_(wikipedia)', 'http://www.example.com/wpstyle/?p=364', 'https://www.example.com/foo/?bar=baz&inga=42&quux',
  'http://✪df.ws/123', 'http://userid:password@example.com:8080', 'http://userid:password@example.com:8080/', 'http://userid@example.com', 'http://142.42.1.1/',
  'http://142.42.1.1:8080/', 'http://➡.ws/䨹', 'http://⌘.ws/', 'http://foo.com/blah_(wikipedia)#cite-1', 'http://foo.bar/?q=Test%20URL-encoded%20stuff',
  'http://مثال.إختبار', 'http://例子.测试', 'http://-.~_!$&\'()*+,;=:%40:80%2f::::::@example.com', 'http://1337.net', 'http://a.b-c.de', 'http://223.255.255.254',
  'ftp://foo.bar/baz', 'http://', 'http://.', 'http://..', 'http://../', 'http://?', 'http://??/', 'http://#', 'http://foo.bar?q=Spaces should be encoded', '//',
  'http:// shouldfail.com', ':// should fail', 'http://foo.bar/foo(bar)baz quux', 'ftps://foo.bar/', 'http://-error-.invalid/', 'http://a.b--c.de/', 'http://-a.b.co',
  'http://a.b-.co', 'http://0.0.0.0', 'http://10.1.1.0', 'http://10.1.1.255', 'http://224.1.1.1', 'http://1.1.1.1.1', 'http://123.123.123', 'http://3628126748',
  'http://.www.foo.bar/', 'http://www.foo.bar./', 'http://.www.foo.bar./', 'http://10.1.1.1', 'http://10.1.1.254', 'http://172.16.5.5:80/x', 'http://a@b@c.com',
  'http://@example.com', 'http://a b@example.com', 'http://example.com:1', 'http://example.com:123456', 'http://example.com:65535/a b',
];

const HOSTS = ['example.com', 'a.b-c.de', 'x.co', '例子.测试', 'é.com', '1.2.3.4', '10.1.2.3', '172.20.0.1', '223.255.255.254', 'a--b.com', 'com', 'a.c1'];

/** A URL built from parts (user info, host, port, path), then zero to two random pieces inserted anywhere. */
function randomUrl(next: () => number): string {
  if (next() < 0.3) return Array.from({ length: 1 + Math.floor(next() * 10) }, () => pick(next, URL_PIECES)).join('');
  let text = pick(next, ['http://', 'https://', 'ftp://', 'HTTP://']);
  if (next() < 0.3) text += `${pick(next, ['user', 'u:p', 'a@b', ':', 'x/y'])}@`;
  text += pick(next, HOSTS);
  if (next() < 0.3) text += `:${pick(next, ['1', '80', '8080', '65535', '123456'])}`;
  if (next() < 0.5) text += pick(next, ['/', '/a/b', '/a?b=c#d', '/@x:y', '/a b']);
  for (let mutations = Math.floor(next() * 3); mutations > 0; mutations--) {
    const at = Math.floor(next() * (text.length + 1));
    text = text.slice(0, at) + pick(next, URL_PIECES) + text.slice(at);
  }
  return text;
}

describe("linear formats agree with ajv-formats' expressions", () => {
  it('url: the curated corpus (valid and invalid URLs) gets the same verdicts', () => {
    const verdicts = CURATED_URLS.map((text) => [text, isUrl(text)]);
    expect(verdicts).toEqual(CURATED_URLS.map((text) => [text, (fullFormats.url as RegExp).test(text)]));
    expect(verdicts.filter(([, valid]) => valid).length).toBeGreaterThan(15);
    expect(verdicts.filter(([, valid]) => !valid).length).toBeGreaterThan(15);
  });

  it('url: 15,000 generated strings get the same verdicts', () => {
    const next = random(20261127);
    const disagreements: string[] = [];
    let valid = 0;
    for (let n = 0; n < 15_000; n++) {
      const text = randomUrl(next);
      const expected = (fullFormats.url as RegExp).test(text);
      if (expected) valid++;
      if (isUrl(text) !== expected) disagreements.push(JSON.stringify(text));
    }
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(valid).toBeGreaterThan(1_500);
    expect(valid).toBeLessThan(12_000);
  });

  it('every format: a toolkit validator accepts and rejects the corpus exactly as Ajv with ajv-formats', () => {
    const reference = new Ajv({ allErrors: true, strict: false });
    addFormats(reference);
    const validators = new SchemaValidators();
    const samples = [
      '2026-11-27', '2026-02-30', '12:30:00Z', '23:59:60Z', '12:30:00', '2026-11-27T12:30:00.5+01:00', '2026-11-27 12:30:00', 'P1Y2M3DT4H5M6S', 'P1W', 'PT',
      'https://example.com/a?b#c', 'urn:isbn:0451450523', '../a/b?c', '/a/{b}', '{+path}/x', 'http://10.0.0.1', 'a.b@example.com', 'a..b@example.com', 'example.com',
      '-bad-.com', '192.168.0.1', '256.1.1.1', '::1', '1::2::3', '^(a+)+$', '(', 'a\\Z', '123e4567-e89b-12d3-a456-426614174000', '/a~1b/0', '/a~2', '#/a%20b',
      '0/a', '1#', 'SGVsbG8=', 'SGVsbG8', 'secret', '', ' ', 'x'.repeat(300),
    ];
    const numbers = [0, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 'text'];
    const disagreements: string[] = [];
    for (const format of Object.keys(fullFormats)) {
      const schema: JsonSchema = { type: ['string', 'number'], format };
      const ours = validators.compile(schema);
      const theirs = reference.compile(schema);
      for (const value of [...samples, ...numbers]) if (ours(value) !== theirs(value)) disagreements.push(`${format} ${JSON.stringify(value)}`);
    }
    expect(disagreements).toEqual([]);
  });
});

/** A random JSON value: numbers written two ways (`1` and `1.0` are one number), keys in any order. */
function randomJson(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 0 ? 8 : 5));
  switch (kind) {
    case 0:
      return pick(next, [0, -0, 1, 1.0, 2, 0.5, 1e21]);
    case 1:
      return pick(next, ['', 'a', 'b', '1', 'ab']);
    case 2:
      return pick(next, [true, false]);
    case 3:
      return null;
    case 4:
      return pick(next, [1, 'a', null]);
    case 5:
    case 6: {
      const keys = ['a', 'b', 'c'].filter(() => next() < 0.5);
      if (next() < 0.5) keys.reverse();
      return Object.fromEntries(keys.map((key) => [key, randomJson(next, depth - 1)]));
    }
    default:
      return Array.from({ length: Math.floor(next() * 3) }, () => randomJson(next, depth - 1));
  }
}

describe('linear uniqueItems agrees with Ajv', () => {
  it('on 3,000 generated arrays: the same verdict and the same pair of items reported', () => {
    const reference = new Ajv({ allErrors: true, strict: false }).compile({ uniqueItems: true });
    const next = random(42);
    const disagreements: string[] = [];
    let duplicates = 0;
    for (let n = 0; n < 3_000; n++) {
      const items = Array.from({ length: Math.floor(next() * 8) }, () => randomJson(next, 2));
      const valid = reference(items);
      const expected = valid ? undefined : (reference.errors?.[0]?.params as { i: number; j: number });
      if (!valid) duplicates++;
      const actual = duplicateItems(items);
      if (JSON.stringify(actual) !== JSON.stringify(expected && { i: expected.i, j: expected.j })) disagreements.push(JSON.stringify(items));
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    expect(duplicates).toBeGreaterThan(300);
  });

  it('JSON equality: numbers by value, key order irrelevant, arrays in order', () => {
    expect(duplicateItems([{ a: 1, b: [1, 2] }, { b: [1.0, 2], a: 1.0 }])).toEqual({ i: 1, j: 0 });
    expect(duplicateItems([{ a: 1, b: [1, 2] }, { a: 1, b: [2, 1] }])).toBeUndefined();
    expect(duplicateItems([1, '1', [1], { 1: 1 }, true, null])).toBeUndefined();
    expect(duplicateItems([0, -0])).toEqual({ i: 1, j: 0 });
    expect(duplicateItems([{ a: 1 }, { a: 1, b: 2 }])).toBeUndefined();
  });
});
