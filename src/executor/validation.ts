import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { JsonSchema, ObjectJsonSchema } from '../common/json-schema';
import type { Constructor } from '../metadata/records';

/**
 * Creates the Ajv instance of one toolkit: every error reported, formats checked, no coercion.
 * Schemas are checked against the meta-schema once, at registration (`schemaProblems`), so
 * `compile` skips that check: otherwise each toolkit's first call compiles the meta-schema (~45 ms).
 */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, validateFormats: true, validateSchema: false });
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}

function jsonPointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  if (!pointer) return current;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** One line per failing field, written so that a model can repair its call. */
export function describeAjvErrors(errors: readonly ErrorObject[], args: unknown): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = jsonPointerToPath(error.instancePath);
    const at = path ? `'${path}'` : 'arguments';
    let line: string;
    switch (error.keyword) {
      case 'required': {
        const missing = (error.params as { missingProperty: string }).missingProperty;
        line = `${path ? `'${path}.${missing}'` : `'${missing}'`}: is required but missing`;
        break;
      }
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        line = `${path ? `'${path}.${extra}'` : `'${extra}'`}: is not a parameter of this tool (remove it)`;
        break;
      }
      case 'type':
        line = `${at}: must be ${(error.params as { type: string }).type}, got ${typeOfJson(valueAt(args, error.instancePath))}`;
        break;
      case 'enum':
        line = `${at}: must be one of ${preview((error.params as { allowedValues: unknown[] }).allowedValues)}, got ${preview(valueAt(args, error.instancePath))}`;
        break;
      default:
        line = `${at}: ${error.message ?? error.keyword}${
          ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'multipleOf'].includes(error.keyword)
            ? ` (got ${preview(valueAt(args, error.instancePath))})`
            : ''
        }`;
    }
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  return lines;
}

function flattenValidationErrors(errors: readonly ValidationError[], prefix: string, out: string[]): void {
  for (const error of errors) {
    const path = prefix ? (/^\d+$/.test(error.property) ? `${prefix}[${error.property}]` : `${prefix}.${error.property}`) : error.property;
    for (const message of Object.values(error.constraints ?? {})) out.push(`'${path}': ${message}`);
    if (error.children?.length) flattenValidationErrors(error.children, path, out);
  }
}

/**
 * Turns DTO arguments into class instances (class-transformer) and validates them
 * (class-validator). Replaces the values in `args` in place; returns the failing fields.
 */
export async function prepareDtos(
  args: Record<string, unknown>,
  dtos: readonly { name: string; type: Constructor; array: boolean }[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const { name, type, array } of dtos) {
    const value = args[name];
    if (value === undefined) continue;
    const items = array ? (value as unknown[]) : [value];
    const instances: object[] = [];
    for (let i = 0; i < items.length; i++) {
      const instance = plainToInstance(type, items[i]) as object;
      const errors = await validate(instance, { forbidUnknownValues: false });
      flattenValidationErrors(errors, array ? `${name}[${i}]` : name, problems);
      instances.push(instance);
    }
    args[name] = array ? instances : instances[0];
  }
  return problems;
}

/**
 * Removes `null` values of optional properties (a strict-mode model sends every property).
 * `value` itself (the executor's own copy of the arguments) is changed in place; nested objects
 * and arrays that need a change are copied first, so a caller's objects are never mutated.
 */
export function stripNullOptionals(schema: JsonSchema, value: Record<string, unknown>): void {
  stripProperties(schema, value, value);
}

/** Copy-on-write: `value`, or a copy without the `null`s of optional properties at any depth. */
function stripNested(schema: JsonSchema, value: object): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items?.properties) return value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      const stripped = stripNested(items, item);
      if (stripped !== item) (copy ??= value.slice())[i] = stripped;
    }
    return copy ?? value;
  }
  return stripProperties(schema, value as Record<string, unknown>, undefined);
}

/**
 * `record` without the `null`s of optional properties. Changes go to `target`: `record` itself
 * (in place), or `undefined` for a copy made at the first change.
 */
function stripProperties(schema: JsonSchema, record: Record<string, unknown>, target: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = schema.properties;
  if (!properties) return record;
  const required = schema.required ?? [];
  let copy = target;
  for (const key of Object.keys(record)) {
    const property = properties[key];
    // `properties.constructor`, `properties.__proto__`… are inherited, not parameters
    if (property === undefined || !Object.prototype.hasOwnProperty.call(properties, key)) continue;
    const v = record[key];
    if (v === null) {
      if (!required.includes(key) && !allowsNull(property)) delete (copy ??= { ...record })[key];
    } else if (typeof v === 'object') {
      const stripped = stripNested(property, v);
      if (stripped !== v) setOwn((copy ??= { ...record }), key, stripped);
    }
  }
  return copy ?? record;
}

/** `target[key] = value` that defines a data property even for `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function allowsNull(schema: JsonSchema): boolean {
  const type = schema.type;
  return type === 'null' || (Array.isArray(type) && type.includes('null')) || schema.nullable === true || (schema.enum?.includes(null) ?? false);
}

/** True when `schema` (an object schema) may hold a `null` worth stripping somewhere. */
export function hasOptionalProperties(schema: ObjectJsonSchema): boolean {
  const required = schema.required ?? [];
  return Object.keys(schema.properties).some((k) => !required.includes(k)) ||
    Object.values(schema.properties).some((p) => p.type === 'object' || p.type === 'array');
}
