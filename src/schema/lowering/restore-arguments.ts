import type { ObjectJsonSchema } from '../../model/json-schema';
import type { LoweringOptions, ProviderName } from './provider-definitions';
import { nullStripper } from '../null-optionals';

/**
 * Maps a model's arguments back to the canonical schema (a compiled {@link restoreArguments}).
 *
 * @example
 * const restore: ArgumentRestorer = compileArgumentRestorer(schema, 'openai', { strict: true });
 * restore({ city: 'Paris', days: null }); // { city: 'Paris' }
 */
export type ArgumentRestorer = (args: Record<string, unknown>) => Record<string, unknown>;

const IDENTITY: ArgumentRestorer = (args) => args;

/**
 * True when arguments lowered for `provider` with `options` need mapping back: OpenAI's strict
 * form makes optionals required-and-nullable, so a `null` there means "absent".
 *
 * @example
 * loweringRestoresArguments('openai', { strict: true }); // true
 * loweringRestoresArguments('anthropic');                // false
 */
export function loweringRestoresArguments(provider: ProviderName, options: LoweringOptions = {}): boolean {
  return (provider === 'openai' || provider === 'openai-responses') && options.strict === true;
}

/**
 * Maps arguments a model produced against a lowered schema back to the canonical one: for the
 * OpenAI strict form, a `null` for a property that is optional in the canonical `schema` and does
 * not accept `null` there is removed (recursively: nested objects, arrays of objects, union
 * branches, local `$ref`s) — the same rule validation applies to every call.
 * For the other lowerings the arguments are returned as they are. Never mutates `args`
 * (a changed object is a copy; unchanged parts are shared).
 *
 * @example
 * restoreArguments(weatherSchema, { city: 'Paris', days: null }, 'openai', { strict: true });
 * // → { city: 'Paris' }
 */
export function restoreArguments(
  schema: ObjectJsonSchema,
  args: Record<string, unknown>,
  provider: ProviderName,
  options: LoweringOptions = {},
): Record<string, unknown> {
  if (!loweringRestoresArguments(provider, options)) return args;
  const strip = nullStripper(schema);
  return strip === undefined ? args : strip(args);
}

/**
 * Precomputes {@link restoreArguments} for one schema: the walk over the schema is done once,
 * and the returned function only visits the parts of the arguments that can change. Plans are
 * cached per schema object.
 *
 * @example
 * const restore = compileArgumentRestorer(tool.parameters, 'openai', { strict: true });
 * const args = restore(JSON.parse(call.arguments));
 */
export function compileArgumentRestorer(
  schema: ObjectJsonSchema,
  provider: ProviderName,
  options: LoweringOptions = {},
): ArgumentRestorer {
  if (!loweringRestoresArguments(provider, options)) return IDENTITY;
  return nullStripper(schema) ?? IDENTITY;
}

