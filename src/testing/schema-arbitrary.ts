import type * as FastCheck from 'fast-check';

type Schema = Readonly<Record<string, unknown>>;
type Arbitrary = FastCheck.Arbitrary<unknown>;

/** Nesting deeper than this generates `null`-free leaves only: generation stays bounded on recursive-looking schemas. */
const MAX_DEPTH = 6;
/** The most items or extra characters generated where a schema sets no maximum. */
const DEFAULT_MAX = 8;

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

function stringArbitrary(fc: typeof FastCheck, schema: Schema): Arbitrary {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.max(minLength, num(schema.maxLength) ?? minLength + DEFAULT_MAX * 4);
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= maxLength);
    } catch {
      return fc.string({ minLength, maxLength });
    }
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
  if (schema.format === 'uuid') return fc.uuid();
  return fc.string({ minLength, maxLength, unit: 'binary' });
}

function numberArbitrary(fc: typeof FastCheck, schema: Schema, integer: boolean): Arbitrary {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  const multipleOf = num(schema.multipleOf);
  if (integer || multipleOf !== undefined) {
    const step = multipleOf ?? 1;
    const min = Math.ceil((exclusiveMin !== undefined ? exclusiveMin + (integer ? 1 : step) : num(schema.minimum) ?? -1e6) / step);
    const max = Math.floor((exclusiveMax !== undefined ? exclusiveMax - (integer ? 1 : step) : num(schema.maximum) ?? 1e6) / step);
    return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }).map((n) => n * step);
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    min: num(schema.minimum) ?? exclusiveMin ?? -1e9,
    max: num(schema.maximum) ?? exclusiveMax ?? 1e9,
    minExcluded: exclusiveMin !== undefined && schema.minimum === undefined,
    maxExcluded: exclusiveMax !== undefined && schema.maximum === undefined,
  });
}

function objectArbitrary(fc: typeof FastCheck, schema: Schema, depth: number): Arbitrary {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
  const model: Record<string, Arbitrary> = {};
  for (const [key, sub] of Object.entries(properties)) model[key] = schemaArbitrary(fc, sub, depth + 1);
  for (const key of required) model[key] ??= fc.jsonValue({ maxDepth: 1 });
  return fc.record(model, { requiredKeys: required.filter((key) => key in model) });
}

/**
 * A fast-check arbitrary of values valid against a tool's JSON Schema: `type` (and type lists),
 * `enum`, `const`, `anyOf`/`oneOf`, string lengths, patterns and common formats, number bounds
 * and `multipleOf`, array bounds and items, object properties and `required`. Keywords it does
 * not know may let it generate a value the schema refuses; the toolkit's validation then answers
 * `INVALID_ARGUMENTS`, which a fuzz run counts as refused, not as a finding.
 */
export function schemaArbitrary(fc: typeof FastCheck, schema: unknown, depth = 0): Arbitrary {
  if (schema === true || schema === undefined) return fc.jsonValue({ maxDepth: 2 });
  if (!isSchema(schema)) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives !== undefined && alternatives.length > 0) return fc.oneof(...alternatives.map((alt: unknown) => schemaArbitrary(fc, isSchema(alt) ? { ...schema, anyOf: undefined, oneOf: undefined, ...alt } : alt, depth + 1)));
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : schema.type === undefined ? undefined : [schema.type];
  if (types === undefined) return isSchema(schema.properties) ? objectArbitrary(fc, schema, depth) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => typed(fc, schema, type, depth)));
}

function typed(fc: typeof FastCheck, schema: Schema, type: unknown, depth: number): Arbitrary {
  switch (type) {
    case 'string':
      return stringArbitrary(fc, schema);
    case 'number':
    case 'integer':
      return numberArbitrary(fc, schema, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.max(minLength, num(schema.maxItems) ?? minLength + DEFAULT_MAX);
      const items = depth >= MAX_DEPTH ? fc.constant(null) : schemaArbitrary(fc, schema.items, depth + 1);
      return schema.uniqueItems === true ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(fc, schema, depth);
    default:
      return fc.constant(null);
  }
}

/** A value of the wrong JSON type for `schema` (a string where it wants a number…). */
function wrongType(fc: typeof FastCheck, schema: unknown): Arbitrary {
  const types = isSchema(schema) ? (Array.isArray(schema.type) ? schema.type : [schema.type]) : [];
  const all: readonly [string, Arbitrary][] = [
    ['string', fc.string({ maxLength: 12 })],
    ['number', fc.double({ noNaN: true, noDefaultInfinity: true })],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 6 }), fc.integer(), { maxKeys: 2 })],
  ];
  const wrong = all.filter(([name]) => !types.includes(name) && !(name === 'number' && types.includes('integer')));
  return wrong.length === 0 ? fc.constant(undefined) : fc.oneof(...wrong.map(([, arb]) => arb));
}

/**
 * A fast-check arbitrary of arguments a tool's schema refuses, each built from a valid value:
 * a required property dropped, a property of the wrong type, an unknown property where
 * `additionalProperties` is false, a root that is not an object, or JSON text cut short.
 */
export function invalidArgumentsArbitrary(fc: typeof FastCheck, schema: Schema): FastCheck.Arbitrary<unknown> {
  const valid = schemaArbitrary(fc, schema) as FastCheck.Arbitrary<Record<string, unknown>>;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const mutations: Arbitrary[] = [
    fc.oneof(fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.string({ maxLength: 12 }), fc.integer()),
    valid.map((args) => JSON.stringify(args).slice(0, -1)),
  ];
  if (required.length > 0) {
    mutations.push(fc.tuple(valid, fc.constantFrom(...required)).map(([args, key]) => Object.fromEntries(Object.entries(args).filter(([k]) => k !== key))));
  }
  const typedKeys = Object.keys(properties).filter((key) => isSchema(properties[key]) && (properties[key] as Schema).type !== undefined);
  if (typedKeys.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...typedKeys)).chain(([args, key]) => wrongType(fc, properties[key]).map((bad) => (bad === undefined ? null : { ...args, [key]: bad }))),
    );
  }
  if (schema.additionalProperties === false) {
    mutations.push(valid.map((args) => ({ ...args, ['__unexpected_' + Object.keys(args).length]: 1 })));
  }
  return fc.oneof(...mutations);
}
