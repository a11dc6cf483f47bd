import { MalformedArguments, parseCallArguments } from '../../model/call-arguments';
import { settingsFor } from './call-attempts';
import { failed, type Stop } from './call-end';
import { redaction, type CallState } from './call-state';
import { redactDeep } from '../presets/redact';
import type { RoutedEntry } from '../executor-parts';
import { prepareStandard } from '../validation/standard-values';
import type { ToolEntry } from '../tool-entry';
import { describeAjvErrors, prepareDtos, ProblemList } from '../validation/validation';

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** True when the model sent a value for one of the tool's (hidden) preset parameters. */
function namesPreset(args: Record<string, unknown>, presets: NonNullable<ToolEntry['presets']>): boolean {
  for (const { name } of presets) if (hasOwn(args, name)) return true;
  return false;
}

/** True when a parsed argument object holds a `null` or a nested value (where a `null` may hide). */
function mayHoldNull(args: Record<string, unknown>): boolean {
  for (const key in args) {
    const value = args[key];
    if (value === null || typeof value === 'object') return true;
  }
  return false;
}

/**
 * @internal The call's arguments parsed (`parseCallArguments`, unless the dispatcher's routing
 * already did) and the `null`s that mean "absent" removed (`entry.stripNulls`); why they are not
 * one JSON object otherwise (see {@link malformedArguments}). They are not validated yet: see
 * {@link argumentProblems}.
 */
export function parseArguments(run: CallState, routed: RoutedEntry): Record<string, unknown> | MalformedArguments {
  const entry = routed.entry;
  const raw = run.call.arguments;
  const args = routed.parsed ?? parseCallArguments(raw);
  if (args instanceof MalformedArguments) return args;
  const strip = entry.stripNulls;
  // JSON text without `null` holds no null at any depth
  return strip !== undefined && (typeof raw === 'string' ? raw.includes('null') : mayHoldNull(args)) ? strip(args) : args;
}

/** @internal `MALFORMED_ARGUMENTS`, saying why. */
export function malformedArguments(entry: ToolEntry, malformed: MalformedArguments): Stop {
  const expected = malformed.invalidJson ? `. Send one JSON object with the parameters: ${Object.keys(entry.schema.properties).join(', ') || '(none)'}.` : '.';
  return failed('MALFORMED_ARGUMENTS', `Arguments for tool '${entry.name}' ${malformed.reason}${expected}`);
}

/**
 * @internal What is wrong with `args` by the tool's schema (its compiled validator), and a value
 * for a preset parameter; `undefined` when nothing is. The list is open: class-validator adds the
 * DTO problems to it in the same round (`prepareDtos`), a Standard Schema library its own
 * (`prepareStandard`); `converted` checks those parts against their JSON Schema conversion instead.
 */
export function argumentProblems(run: CallState, entry: ToolEntry, args: Record<string, unknown>, converted = false): ProblemList | undefined {
  const validator =
    converted && entry.checkSchema !== undefined
      ? (entry.convertedValidator ??= run.parts.validators.compile(entry.schema))
      : (entry.validator ??= run.parts.validators.compile(entry.checkSchema ?? entry.schema));
  const valid = validator(args) as boolean;
  const presets = entry.presets;
  // the common case of a tool with presets: valid arguments that name none of them (nothing allocated)
  if (valid && (presets === undefined || !namesPreset(args, presets))) return undefined;
  const problems = new ProblemList();
  if (!valid) {
    // values are quoted cut short: redact them first, so that no part of a preset value stays at a cut
    const scrub = redaction(run);
    describeAjvErrors(validator.errors ?? [], scrub !== undefined ? (redactDeep(args, scrub) as Record<string, unknown>) : args, problems);
  }
  if (presets !== undefined) {
    for (const { name } of presets) {
      if (hasOwn(args, name)) {
        problems.flag(name);
        problems.add(`'${name}': is not a parameter of this tool (remove it)`);
      }
    }
  }
  return problems.empty ? undefined : problems;
}

/** @internal `INVALID_ARGUMENTS`, listing `problems`. */
export function invalidArguments(entry: ToolEntry, problems: ProblemList): Stop {
  return failed('INVALID_ARGUMENTS', `Invalid arguments for tool '${entry.name}':\n${problems.toText()}\nFix these and call the tool again.`);
}

/**
 * @internal The asynchronous checks of `args` (the Standard Schema libraries', then class-validator's; after
 * the library only when it found nothing, with `libraryFirst`) within the tool's `timeoutMs`:
 * a validator that never answers cannot hold the call. False when the time ran out.
 */
export async function validateInTime(run: CallState, entry: ToolEntry, args: Record<string, unknown>, problems: ProblemList, libraryFirst: boolean): Promise<boolean> {
  const checks = (async () => {
    if (entry.standard !== undefined) await prepareStandard(args, entry.standard, problems, redaction(run));
    if (entry.dtos !== undefined && (!libraryFirst || problems.empty)) await prepareDtos(args, entry.dtos, problems, redaction(run));
    return true;
  })();
  const { timeoutMs } = settingsFor(run.parts, entry);
  if (timeoutMs <= 0) return checks;
  checks.catch(() => undefined); // a validator failing after the time ran out: the call has ended already
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
  try {
    return await Promise.race([checks, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** @internal `TIMEOUT` of a call whose asynchronous argument checks outlasted the tool's `timeoutMs`: the tool never ran. */
export function validationTimedOut(run: CallState, entry: ToolEntry): Stop {
  const { timeoutMs } = settingsFor(run.parts, entry);
  return failed('TIMEOUT', `Tool '${entry.name}' timed out after ${timeoutMs} ms while its arguments were validated; the tool did not run.`);
}
