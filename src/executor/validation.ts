import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ValidationError } from 'class-validator';
import type { JsonSchema } from '../common/json-schema';
import { boundInput, previewInput, quoteInput } from '../common/quote-input';
import type { Constructor } from '../metadata/records';
import { classTransformer, classValidator } from '../schema/dto-libraries';
import { linearRegExp } from './linear-regexp';

/**
 * Creates the Ajv instance of one toolkit: every error reported, formats checked, no coercion,
 * `pattern`s run by a linear-time engine ({@link linearRegExp}). Ajv loads with the first toolkit,
 * not with `require('toolwright')`; compile with {@link compileValidator}, which adds the formats
 * when a schema first needs them.
 * Schemas are checked against the meta-schema once, at registration (`schemaProblems`), so
 * `compile` skips that check: otherwise each toolkit's first call compiles the meta-schema (~45 ms).
 */
export function createAjv(): Ajv {
  const { Ajv } = require('ajv') as typeof import('ajv');
  return new Ajv({
    allErrors: true,
    strict: false,
    coerceTypes: false,
    useDefaults: false,
    validateFormats: true,
    validateSchema: false,
    code: { regExp: linearRegExp },
  });
}

/** The Ajv instances that have ajv-formats' formats and keywords. */
const withFormats = new WeakSet<Ajv>();

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
 * `ajv.compile(schema)`, with ajv-formats' formats (`email`, `date-time`, `uuid`…) added to `ajv`
 * first when `schema` is the first of `ajv`'s schemas to use `format`: ajv-formats is loaded only
 * for toolkits that need it, and compiled validators run as fast as before.
 *
 * @internal
 */
export function compileValidator(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  if (!withFormats.has(ajv) && usesFormat(schema)) {
    (require('ajv-formats') as typeof import('ajv-formats')).default(ajv);
    withFormats.add(ajv);
  }
  return ajv.compile(schema);
}

/** The unescaped segments of a JSON Pointer (`/a~1b/0` → `['a/b', '0']`); none for the root (`''`). */
function pointerSegments(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function jsonPointerToPath(pointer: string): string {
  return pointerSegments(pointer).reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const key of pointerSegments(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The most problems an INVALID_ARGUMENTS text lists; the others are counted. */
const MAX_PROBLEMS = 20;
/** The longest problem line (paths and values in it are bounded first). */
const MAX_PROBLEM_CHARS = 300;
/** The longest path or key a problem line quotes. */
const MAX_PATH_CHARS = 120;

/**
 * The problems of one call's arguments, bounded whatever the input: at most {@link MAX_PROBLEMS}
 * distinct lines of at most 300 characters each, and a count of the others.
 */
export class ProblemList {
  private readonly lines: string[] = [];
  private readonly seen = new Set<string>();
  private more = 0;
  private unknownMore = false;

  /** True when no more lines are listed (further problems are only counted). */
  get full(): boolean {
    return this.lines.length >= MAX_PROBLEMS;
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
    switch (error.keyword) {
      case 'required': {
        const missing = (error.params as { missingProperty: string }).missingProperty;
        line = `${quotePath(path ? `${path}.${missing}` : missing)}: is required but missing`;
        break;
      }
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        line = `${quotePath(path ? `${path}.${extra}` : extra)}: is not a parameter of this tool (remove it)`;
        break;
      }
      case 'type':
        line = `${at}: must be ${(error.params as { type: string }).type}, got ${typeOfJson(valueAt(args, error.instancePath))}`;
        break;
      case 'enum':
        line = `${at}: must be one of ${previewInput((error.params as { allowedValues: unknown[] }).allowedValues, 160)}, got ${previewInput(valueAt(args, error.instancePath))}`;
        break;
      default:
        line = `${at}: ${error.message ?? error.keyword}${VALUE_KEYWORDS.has(error.keyword) ? ` (got ${previewInput(valueAt(args, error.instancePath))})` : ''}`;
    }
    problems.add(line);
  }
}

function flattenValidationErrors(errors: readonly ValidationError[], prefix: string, problems: ProblemList): void {
  for (const error of errors) {
    const path = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    for (const message of Object.values(error.constraints ?? {})) problems.add(`${quotePath(path)}: ${message}`);
    if (error.children?.length) flattenValidationErrors(error.children, path, problems);
  }
}

/**
 * Keys class-transformer cannot carry as data: the names of `Object.prototype`'s members. Inside a
 * DTO argument it reads them as the object's own methods (`constructor` throws, others vanish).
 */
const BUILT_IN_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

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
 * `problems` and stops once it lists no more of them (the call fails anyway). A key that names a
 * member of `Object.prototype` (`constructor`, `__proto__`, `hasOwnProperty`…) anywhere in a DTO
 * argument is reported as a problem: class-transformer cannot keep it as data.
 */
export async function prepareDtos(
  args: Record<string, unknown>,
  dtos: readonly { name: string; type: Constructor; array: boolean }[],
  problems: ProblemList,
): Promise<void> {
  for (const { name, type, array } of dtos) {
    const value = args[name];
    if (value === undefined) continue;
    const builtIn = builtInKeyPath(value, name);
    if (builtIn !== undefined) {
      problems.add(`${quotePath(builtIn.path)}: the key ${quoteInput(builtIn.key)} names a built-in object member and cannot be used here; rename or remove it`);
      continue;
    }
    const items = array ? (value as unknown[]) : [value];
    const instances: object[] = [];
    for (let i = 0; i < items.length; i++) {
      if (problems.full) {
        problems.stopped();
        return;
      }
      const instance = classTransformer().plainToInstance(type, items[i]) as object;
      const errors = await classValidator().validate(instance, { forbidUnknownValues: false });
      flattenValidationErrors(errors, array ? `${name}[${i}]` : name, problems);
      instances.push(instance);
    }
    args[name] = array ? instances : instances[0];
  }
}

