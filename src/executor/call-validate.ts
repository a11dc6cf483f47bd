import { MalformedArguments, parseCallArguments } from '../common/call-arguments';
import type { ToolResult } from '../common/tool-types';
import { fail } from './call-end';
import { redaction, type CallState } from './call-state';
import { redactDeep } from './redact';
import type { RoutedEntry } from './executor-core';
import type { ToolEntry } from './tool-entry';
import { describeAjvErrors, ProblemList } from './validation';

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

/** @internal Ends the call with `MALFORMED_ARGUMENTS`, saying why. */
export function malformedArguments(run: CallState, entry: ToolEntry, malformed: MalformedArguments): ToolResult {
  const expected = malformed.invalidJson ? `. Send one JSON object with the parameters: ${Object.keys(entry.schema.properties).join(', ') || '(none)'}.` : '.';
  return fail(run, 'MALFORMED_ARGUMENTS', `Arguments for tool '${entry.name}' ${malformed.reason}${expected}`);
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
      ? (entry.convertedValidator ??= run.core.validators.compile(entry.schema))
      : (entry.validator ??= run.core.validators.compile(entry.checkSchema ?? entry.schema));
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

/**
 * @internal {@link argumentProblems}, ending the call with `INVALID_ARGUMENTS` when there are
 * any (false then). For arguments a hook rewrote: Standard Schema parts are checked against
 * their JSON Schema conversion (the library's own validation ran on what the model sent).
 */
export function validateArguments(run: CallState, entry: ToolEntry, args: Record<string, unknown>): boolean {
  const problems = argumentProblems(run, entry, args, true);
  if (problems === undefined) return true;
  invalidArguments(run, entry, problems);
  return false;
}

/** @internal Ends the call with `INVALID_ARGUMENTS`, listing `problems`. */
export function invalidArguments(run: CallState, entry: ToolEntry, problems: ProblemList): ToolResult {
  return fail(run, 'INVALID_ARGUMENTS', `Invalid arguments for tool '${entry.name}':\n${problems.toText()}\nFix these and call the tool again.`);
}
