import { isPlainObject } from '../../utils/plain-object';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv from 'ajv/dist/core';
import type { ValidationError } from 'class-validator';
import type { JsonSchema } from '../../model/json-schema';
import { boundInput, previewInput, quoteInput } from '../../utils/quote-input';
import type { Constructor } from '../../metadata/records';
import { schemaDialect, type SchemaDialect } from '../../schema/schema-dialect';
import { jsonPointerToPath, typeOfJson, valueAt } from './json-pointer';
import { addLinearFormats } from './linear-formats';
import { linearRegExp } from './linear-regexp';
import type { Scrub } from '../presets/redact';
import { withLinearUniqueItems } from './unique-items';

/**
 * Creates an Ajv instance for `dialect` (Ajv's 2020 build, or its draft-07 default build), loaded
 * when a toolkit first compiles a schema of that dialect, not with `require('toolwright')`: every
 * error reported, formats checked, no coercion, `pattern`s ({@link linearRegExp}), `uniqueItems`
 * and formats ({@link addLinearFormats}, when a schema first needs them) in linear time.
 * Schemas are checked against the meta-schema once, at registration (`schemaProblems`), so
 * `compile` skips that check: otherwise each toolkit's first call compiles the meta-schema (~45 ms).
 */
function createAjv(dialect: SchemaDialect): Ajv {
  const options = {
    allErrors: true,
    strict: false,
    coerceTypes: false,
    useDefaults: false,
    validateFormats: true,
    validateSchema: false,
    // optimize: false compiles about 3x faster, and the validators run as fast
    code: { regExp: linearRegExp, optimize: false },
  } as const;
  const ajv = dialect === 'draft-07' ? new (require('ajv') as typeof import('ajv')).Ajv(options) : new (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).Ajv2020(options);
  return withLinearUniqueItems(ajv);
}

/** True when `schema` has a `format` keyword anywhere (a property named `format` is no keyword). */
function usesFormat(schema: JsonSchema): boolean {
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) pending.push(...(node as unknown[]));
    else
      for (const [key, value] of Object.entries(node)) {
        if (key === 'format' && typeof value === 'string') return true;
        pending.push(value);
      }
  }
  return false;
}

/**
 * @internal The schema validators of one toolkit: each schema is compiled by the Ajv of its
 * dialect (`schemaDialect`: draft 2020-12 unless it declares draft-07 or uses draft-07's tuple
 * form), each Ajv created when first needed.
 *
 * @example
 * const validate = validators.compile({ type: 'object', properties: { t: { prefixItems: [{ type: 'number' }], items: false } } });
 */
export class SchemaValidators {
  private readonly engines: { [D in SchemaDialect]?: Ajv } = {};
  /** The engines that have ajv-formats' formats and keywords. */
  private readonly withFormats = new Set<Ajv>();

  /**
   * The validation function of `schema` (registration has refused the schemas no dialect fits),
   * with ajv-formats' formats (`email`, `date-time`, `url`…) added to the engine first when
   * `schema` is the first of its schemas to use `format`: ajv-formats is loaded only for toolkits
   * that need it, and compiled validators run as fast as before.
   */
  compile(schema: JsonSchema): ValidateFunction {
    const found = schemaDialect(schema);
    const dialect = 'dialect' in found ? found.dialect : '2020-12';
    const ajv = (this.engines[dialect] ??= createAjv(dialect));
    if (!this.withFormats.has(ajv) && usesFormat(schema)) {
      addLinearFormats(ajv);
      this.withFormats.add(ajv);
    }
    const validate = ajv.compile(schema);
    // Ajv would keep every schema it compiled, by object, for the toolkit's life: the validator is
    // kept by its tool entry instead, and goes with it when the tool is unregistered or replaced
    ajv.removeSchema(schema);
    return validate;
  }
}

/** The most problems an INVALID_ARGUMENTS text lists; the others are counted. */
const MAX_PROBLEMS = 20;
/** The longest problem line (paths and values in it are bounded first). */
const MAX_PROBLEM_CHARS = 300;
/** The longest path or key a problem line quotes. */
const MAX_PATH_CHARS = 120;

/** True when `path` is `at` or lies inside it (`a.b`, `a[0]` inside `a`; everything inside `''`). */
function within(path: string, at: string): boolean {
  return at === '' || path === at || (path.startsWith(at) && (path[at.length] === '.' || path[at.length] === '['));
}

/**
 * The problems of one call's arguments, bounded whatever the input: at most {@link MAX_PROBLEMS}
 * distinct lines of at most 300 characters each, and a count of the others. The schema's
 * problems are {@link flag}ged with their paths, so that class-validator, which runs in the same
 * round, adds only what the schema did not already say about a path or its contents.
 */
export class ProblemList {
  private readonly lines: string[] = [];
  private readonly seen = new Set<string>();
  private more = 0;
  private unknownMore = false;
  private flagged: string[] | undefined;
  private oversized: string[] | undefined;
  private shadowed = 0;

  /** True when no more lines are listed (further problems are only counted). */
  get full(): boolean {
    return this.lines.length >= MAX_PROBLEMS;
  }

  /** True when looking for more problems is pointless: the list is full, or enough were found already said. */
  get saturated(): boolean {
    return this.full || this.shadowed >= MAX_PROBLEMS;
  }

  /** True when nothing was found. */
  get empty(): boolean {
    return this.lines.length === 0 && this.more === 0 && !this.unknownMore;
  }

  /** Adds a problem line (a repeated line is listed once). */
  add(line: string): void {
    const bounded = boundInput(line, MAX_PROBLEM_CHARS);
    if (this.seen.has(bounded)) return;
    if (this.full) {
      this.more++;
      return;
    }
    this.seen.add(bounded);
    this.lines.push(bounded);
  }

  /**
   * Records that the schema reported a problem at `path` (`a.b[0]`; `''` for the arguments);
   * `oversized` when the value there is larger than the schema allows (`maxItems`, `maxLength`…).
   */
  flag(path: string, oversized = false): void {
    (this.flagged ??= []).push(path);
    if (oversized) (this.oversized ??= []).push(path);
  }

  /** True when the schema reported a problem at `path` or at an object or array that holds it. */
  covers(path: string): boolean {
    return this.flagged !== undefined && this.flagged.some((at) => within(path, at));
  }

  /**
   * True when the schema found a value at or inside `path` larger than it allows: what the
   * schema's size bounds would have kept from class-validator's work is not given to it.
   */
  holdsOversized(path: string): boolean {
    return this.oversized !== undefined && this.oversized.some((at) => within(at, path));
  }

  /** Adds `line`, a problem at `path` found after the schema's, unless the schema {@link covers} that path. */
  addUnlessCovered(path: string, line: string): void {
    if (this.covers(path)) this.shadowed++;
    else this.add(line);
  }

  /** Counts `count` problems that were not described. */
  skip(count: number): void {
    this.more += count;
  }

  /** Notes that checking stopped early: more problems may exist. */
  stopped(): void {
    this.unknownMore = true;
  }

  /** The listed lines, as `- line` rows, with the count of the others last. */
  toText(): string {
    const rows = this.lines.map((line) => `- ${line}`);
    if (this.more > 0) rows.push(`- … and ${this.more} more problem(s) not listed`);
    else if (this.unknownMore) rows.push('- … and possibly more problems not listed');
    return rows.join('\n');
  }
}

/** Keywords whose problem lines quote the offending value (`must be >= 1 (got 0)`). */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'multipleOf']);

/** Keywords whose problem says the value is larger than the schema allows. */
const OVERSIZED_KEYWORDS: ReadonlySet<string> = new Set(['maxItems', 'maxProperties', 'maxLength', 'items', 'additionalItems', 'maxContains']);

function quotePath(path: string): string {
  return quoteInput(path, MAX_PATH_CHARS);
}

/** Adds one line per failing field to `problems`, written so that a model can repair its call. */
export function describeAjvErrors(errors: readonly ErrorObject[], args: unknown, problems: ProblemList): void {
  for (let i = 0; i < errors.length; i++) {
    if (problems.full) {
      problems.skip(errors.length - i);
      return;
    }
    const error = errors[i];
    const path = jsonPointerToPath(error.instancePath);
    const at = path ? quotePath(path) : 'arguments';
    let line: string;
    let flagged = path;
    switch (error.keyword) {
      case 'required': {
        const missing = (error.params as { missingProperty: string }).missingProperty;
        flagged = path ? `${path}.${missing}` : missing;
        line = `${quotePath(flagged)}: is required but missing`;
        break;
      }
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        flagged = path ? `${path}.${extra}` : extra;
        line = `${quotePath(flagged)}: is not a parameter of this tool (remove it)`;
        break;
      }
      case 'type':
        line = `${at}: must be ${(error.params as { type: string }).type}, got ${typeOfJson(valueAt(args, error.instancePath))}`;
        break;
      case 'false schema': // the schema `false` (a forbidden property…): Ajv's "boolean schema is false" tells a model nothing
        line = `${at}: no value is allowed here (remove it)`;
        break;
      case 'enum':
        line = `${at}: must be one of ${previewInput((error.params as { allowedValues: unknown[] }).allowedValues, 160)}, got ${previewInput(valueAt(args, error.instancePath))}`;
        break;
      default:
        line = `${at}: ${error.message ?? error.keyword}${VALUE_KEYWORDS.has(error.keyword) ? ` (got ${previewInput(valueAt(args, error.instancePath))})` : ''}`;
    }
    problems.flag(flagged, OVERSIZED_KEYWORDS.has(error.keyword));
    problems.add(line);
  }
}

function flattenValidationErrors(errors: readonly ValidationError[], prefix: string, problems: ProblemList, scrub: Scrub | undefined): void {
  for (const error of errors) {
    const path = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      const line = `${quotePath(path)}: ${message}`;
      problems.addUnlessCovered(path, scrub !== undefined ? scrub(line) : line);
    }
    if (error.children?.length) flattenValidationErrors(error.children, path, problems, scrub);
  }
}

/**
 * Keys class-transformer cannot carry as data: the names of `Object.prototype`'s members. Inside a
 * DTO argument it reads them as the object's own methods (`constructor` throws, others vanish).
 */
const BUILT_IN_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The DTO checks (`transformAndValidate`), loaded with the first DTO argument, not with `require('toolwright')`. */
let dtoChecks: typeof import('./dto-array-unique') | undefined;
/** The path of the first key of `value` (at any depth) that names a member of `Object.prototype`. */
function builtInKeyPath(value: unknown, path: string): { path: string; key: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = builtInKeyPath(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const at = `${path}.${key}`;
    if (BUILT_IN_KEYS.has(key)) return { path: at, key };
    const found = builtInKeyPath((value as Record<string, unknown>)[key], at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Turns DTO arguments into class instances (class-transformer) and validates them
 * (class-validator). Replaces the values in `args` in place; adds the failing fields to
 * `problems` and stops once looking further is pointless (the call fails anyway). A key that
 * names a member of `Object.prototype` (`constructor`, `__proto__`, `hasOwnProperty`…) anywhere
 * in a DTO argument is reported as a problem: class-transformer cannot keep it as data.
 *
 * It also runs after the schema failed (one round: the model learns every problem at once): then
 * only values of the shape the schema wants and within its size bounds are checked (so its work
 * stays bounded as for valid arguments), and a problem at a path the schema already reported
 * ({@link ProblemList.covers}) is not repeated.
 * `scrub` redacts preset values from class-validator's messages before they are cut.
 */
export async function prepareDtos(
  args: Record<string, unknown>,
  dtos: readonly { name: string; type: Constructor; array: boolean }[],
  problems: ProblemList,
  scrub?: Scrub,
): Promise<void> {
  for (const { name, type, array } of dtos) {
    const value = args[name];
    if (value === undefined || problems.covers(name) || !(array ? Array.isArray(value) : isPlainObject(value))) continue;
    if (problems.saturated) {
      problems.stopped();
      return;
    }
    const builtIn = builtInKeyPath(value, name);
    if (builtIn !== undefined) {
      problems.addUnlessCovered(builtIn.path, `${quotePath(builtIn.path)}: the key ${quoteInput(builtIn.key)} names a built-in object member and cannot be used here; rename or remove it`);
      continue;
    }
    const items = array ? (value as unknown[]) : [value];
    const instances: object[] = [];
    for (let i = 0; i < items.length; i++) {
      if (problems.saturated) {
        problems.stopped();
        return;
      }
      const item = items[i];
      const at = array ? `${name}[${i}]` : name;
      if (!isPlainObject(item) || problems.covers(at) || problems.holdsOversized(at)) continue;
      const { instance, errors } = await (dtoChecks ??= require('./dto-array-unique') as typeof import('./dto-array-unique')).transformAndValidate(type, item);
      flattenValidationErrors(errors, at, problems, scrub);
      instances.push(instance);
    }
    args[name] = array ? instances : instances[0];
  }
}
