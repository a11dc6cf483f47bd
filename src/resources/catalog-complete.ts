import { ToolkitError } from '../errors';
import type { CompleteCallback } from '../metadata/records';
import type { CatalogEntry } from './catalog-entry';
import type { CompleteOptions, CompletionResult } from './catalog-types';
import { Bounded, contextResolver, describeMember, timeoutOf, type MemberRunParts } from './member-run';
import { presetSecretsOf } from '../executor/presets/preset-secrets';

/** The most values one completion answer holds (MCP's bound). */
export const MAX_COMPLETION_VALUES = 100;
/** How long a completion may take when its member sets no timeout (completions run as the user types). */
const COMPLETION_TIMEOUT_MS = 10_000;

const NONE: CompletionResult = Object.freeze({ values: Object.freeze([]), total: 0, hasMore: false });

/** The values of an enum that start with `value` (case-insensitive): an enum completes without a callback. */
function enumCompletion(values: readonly unknown[]): CompleteCallback {
  return (value) => values.map(String).filter((v) => v.toLowerCase().startsWith(value.toLowerCase()));
}

/**
 * @internal Suggestions for argument `name` of `entry` from what was typed (`value`): its
 * `complete` callback's, or an enum's values. An argument that is unknown, a preset or has neither
 * gets none. A callback that throws, rejects, answers something other than a list or runs out of
 * time is reported as a `callback_failed` event and gets none: never an error. At most
 * {@link MAX_COMPLETION_VALUES} values, `total` counting the strings the callback gave.
 */
export async function completeArgument(
  parts: MemberRunParts,
  entry: CatalogEntry,
  name: string,
  value: string,
  options: CompleteOptions,
  sessionId: string | undefined,
): Promise<CompletionResult> {
  const param = entry.args.find((p) => p.name === name);
  const enumValues = param?.schema.enum ?? (param?.schema.type === 'boolean' ? [true, false] : undefined);
  const complete = param === undefined ? undefined : (entry.descriptor.completions.get(name) ?? (enumValues !== undefined ? enumCompletion(enumValues) : undefined));
  if (complete === undefined) return NONE;
  const source = `complete(${describeMember(entry)}, '${name}')`;
  let answer: unknown;
  try {
    const bounded = new Bounded(parts, `Completing '${name}' of ${describeMember(entry)}`, timeoutOf(parts, entry) || COMPLETION_TIMEOUT_MS, options.signal);
    const context = { arguments: { ...(options.arguments ?? {}) }, context: contextResolver(parts, options), signal: bounded.signal, ...(sessionId !== undefined ? { sessionId } : {}) };
    answer = await bounded.settle(() => complete(value, context));
  } catch (error) {
    // the client's cancellation is no fault of the callback's
    if (!ToolkitError.is(error, 'ABORTED')) parts.report(error, source);
    return NONE;
  }
  if (!Array.isArray(answer)) {
    parts.report(new TypeError(`the completion callback returned ${typeof answer}, not an array of strings`), source);
    return NONE;
  }
  const scrub = entry.presets !== undefined ? presetSecretsOf(entry).scrub() : undefined;
  const strings = (answer as unknown[]).filter((v): v is string => typeof v === 'string');
  const values = strings.slice(0, MAX_COMPLETION_VALUES).map((v) => (scrub === undefined ? v : scrub(v)));
  return { values, total: strings.length, hasMore: strings.length > MAX_COMPLETION_VALUES };
}
