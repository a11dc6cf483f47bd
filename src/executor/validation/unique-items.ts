import type Ajv from 'ajv/dist/core';
import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

/**
 * The hash's seed, drawn per process: items that share a hash cannot be prepared in advance, so a
 * bucket holds distinct values only by chance.
 */
const SEED = (Math.random() * 0x1_0000_0000) >>> 0;
// read once: inside a `vm` context (Jest), every read of a global such as `Math` is slow
const imul = Math.imul;
const isNaNumber = Number.isNaN;
const isArray = Array.isArray;
const keysOf = Object.keys;

const TAG = { string: 1, number: 2, true: 3, false: 4, null: 5, array: 6, object: 7, other: 8 } as const;

const numberBits = new Float64Array(1);
const numberWords = new Uint32Array(numberBits.buffer);

function mix(hash: number, word: number): number {
  return imul(hash ^ word, 0x5bd1_e995) ^ (hash >>> 15);
}

function mixString(hash: number, text: string): number {
  let h = mix(hash, text.length);
  for (let i = 0; i < text.length; i++) h = mix(h, text.charCodeAt(i));
  return h;
}

/**
 * A hash of the canonical form of a JSON value: type tags, lengths, object keys in sorted order
 * (key order is irrelevant to JSON equality), numbers by value (`1` and `1.0` are one number; `0`
 * and `-0` are equal). Walks the value with an explicit stack, so deep nesting cannot overflow.
 * A small integer, so that the map of buckets keys on it without allocating.
 */
function canonicalHash(root: unknown): number {
  let h = SEED;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') h = mixString(mix(h, TAG.string), value);
    else if (typeof value === 'number') {
      numberBits[0] = value === 0 ? 0 : isNaNumber(value) ? Number.NaN : value;
      h = mix(mix(mix(h, TAG.number), numberWords[0]), numberWords[1]);
    } else if (typeof value === 'boolean') h = mix(h, value ? TAG.true : TAG.false);
    else if (value === null) h = mix(h, TAG.null);
    else if (isArray(value)) {
      h = mix(mix(h, TAG.array), value.length);
      for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
    } else if (typeof value === 'object') {
      const keys = keysOf(value).sort();
      h = mix(mix(h, TAG.object), keys.length);
      for (const key of keys) h = mixString(h, key);
      for (let i = keys.length - 1; i >= 0; i--) pending.push((value as Record<string, unknown>)[keys[i]]);
    } else h = mix(h, TAG.other);
  }
  h = imul(h ^ (h >>> 16), 0x85eb_ca6b);
  h = imul(h ^ (h >>> 13), 0xc2b2_ae35);
  return (h ^ (h >>> 16)) & 0x3fff_ffff;
}

/** True for an object made by JSON (or an object literal): compared key by key. */
function isJsonObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Ajv's deep equality (fast-deep-equal), for objects JSON cannot make (dates, class instances). */
let ajvEqual: ((a: unknown, b: unknown) => boolean) | undefined;

/**
 * JSON Schema equality, as Ajv's `uniqueItems` decides it (numbers by value, key order
 * irrelevant, arrays in order), walked with an explicit stack.
 */
function sameValue(first: unknown, second: unknown): boolean {
  const pending: unknown[] = [first, second];
  while (pending.length > 0) {
    const b = pending.pop();
    const a = pending.pop();
    if (a === b) continue;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      if (a !== a && b !== b) continue; // NaN, as Ajv
      return false;
    }
    if (isArray(a) !== isArray(b)) return false;
    if (isArray(a)) {
      const other = b as unknown[];
      if (a.length !== other.length) return false;
      for (let i = 0; i < a.length; i++) pending.push(a[i], other[i]);
      continue;
    }
    if (!isJsonObject(a) || !isJsonObject(b)) {
      ajvEqual ??= (require('ajv/dist/runtime/equal') as { default: (a: unknown, b: unknown) => boolean }).default;
      if (!ajvEqual(a, b)) return false;
      continue;
    }
    const keys = keysOf(a);
    if (keys.length !== keysOf(b).length) return false;
    for (const key of keys) {
      if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
      pending.push((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
    }
  }
  return true;
}

/**
 * @internal The last pair of equal items of `items`, as Ajv reports it (`i` the highest index
 * equal to an earlier item, `j` the nearest earlier one), or `undefined` when all are distinct.
 * Time linear in the size of `items`: each item is hashed once (its canonical form), and compared
 * only with the distinct earlier items of the same hash.
 *
 * @example
 * duplicateItems([{ a: 1, b: 2 }, 3, { b: 2, a: 1.0 }]); // { i: 2, j: 0 }
 */
export function duplicateItems(items: readonly unknown[]): { i: number; j: number } | undefined {
  if (items.length < 2) return undefined;
  /** Per hash, the latest index of each distinct value with that hash. */
  const buckets = new Map<number, number[]>();
  let found: { i: number; j: number } | undefined;
  for (let i = 0; i < items.length; i++) {
    const hash = canonicalHash(items[i]);
    const bucket = buckets.get(hash);
    if (bucket === undefined) {
      buckets.set(hash, [i]);
      continue;
    }
    const at = bucket.findIndex((index) => sameValue(items[index], items[i]));
    if (at === -1) bucket.push(i);
    else {
      found = { i, j: bucket[at] };
      bucket[at] = i;
    }
  }
  return found;
}

const validateUniqueItems: SchemaValidateFunction = (schema: unknown, data: unknown[]): boolean => {
  validateUniqueItems.errors = undefined;
  if (schema !== true) return true;
  const pair = duplicateItems(data);
  if (pair === undefined) return true;
  validateUniqueItems.errors = [{ keyword: 'uniqueItems', params: pair, message: `must NOT have duplicate items (items ## ${pair.j} and ${pair.i} are identical)` }];
  return false;
};

const uniqueItemsKeyword: FuncKeywordDefinition = { keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', $data: true, validate: validateUniqueItems };

/**
 * @internal Replaces Ajv's `uniqueItems` (which compares objects and arrays pair by pair: 10,000
 * distinct objects take seconds) with {@link duplicateItems}: the same verdicts and error, in
 * time linear in the array's size.
 *
 * @example
 * withLinearUniqueItems(new Ajv());
 */
export function withLinearUniqueItems<A extends Ajv>(ajv: A): A {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword);
  return ajv;
}
