import { describeThrown, ToolkitError } from '../errors/toolkit-error';

/** One problem a Standard Schema library found (`@standard-schema/spec` `Issue`). */
export interface StandardSchemaIssue {
  /** The library's own message. */
  readonly message: string;
  /** Where: property keys, or `{ key }` segments (valibot). */
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** What a Standard Schema's `validate` answers: the (possibly transformed) value, or the issues. */
export type StandardSchemaResult = { readonly value: unknown; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaIssue[] };

/**
 * A schema object of any library that implements Standard Schema v1 (`@standard-schema/spec`):
 * zod 4, valibot, arktype… Duck-typed: toolwright depends on none of them.
 *
 * @example
 * import { z } from 'zod';
 * const city: StandardSchemaLike = z.string().min(2);
 */
export interface StandardSchemaLike {
  /** The Standard Schema interface: the library's name and its validator. */
  readonly '~standard': {
    readonly version: 1;
    /** The library: `'zod'`, `'valibot'`, `'arktype'`… */
    readonly vendor: string;
    /** Validates a value (sync or async). */
    readonly validate: (value: unknown) => StandardSchemaResult | Promise<StandardSchemaResult>;
  };
}

/**
 * True when `value` is a Standard Schema object (a `~standard` property with a `vendor` and a
 * `validate` function). arktype's types are functions, so functions count too. A plain object
 * whose `~standard` is hidden (not enumerable) is a JSON Schema that carries a validator — what
 * zod 4's `z.toJSONSchema` returns — and stays a JSON Schema.
 *
 * @example
 * isStandardSchema(z.string()); // true
 * isStandardSchema({ type: 'string' }); // false
 * @throws ToolkitError `INVALID_DEFINITION` when reading its `~standard` throws.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  if (Object.getPrototypeOf(value) === Object.prototype && Object.getOwnPropertyDescriptor(value, '~standard')?.enumerable === false) return false;
  let standard: unknown;
  try {
    standard = (value as { '~standard'?: unknown })['~standard'];
  } catch (error) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `Reading the schema's '~standard' property threw (${describeThrown(error)}): a Standard Schema (zod 4, valibot, arktype…) exposes it as a plain object.`,
    );
  }
  if (typeof standard !== 'object' || standard === null) return false;
  const s = standard as { vendor?: unknown; validate?: unknown };
  return typeof s.vendor === 'string' && typeof s.validate === 'function';
}
