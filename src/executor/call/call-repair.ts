import { boundInput } from '../../utils/quote-input';
import { isPlainObject } from '../../utils/plain-object';
import { redaction, type CallState } from './call-state';
import type { Scrub } from '../presets/redact';
import { argumentProblems } from './call-validate';
import { coerceArguments } from '../repair/repair-coerce';
import { repairJsonSyntax, MAX_REPAIR_CHARS } from '../repair/repair-syntax';
import type { RepairChange } from '../../model/repair-types';
import type { ToolEntry } from '../tool-entry';

/** @internal Arguments a safe repair made valid, and what it changed (`call_repaired`). */
export interface Repaired {
  readonly args: Record<string, unknown>;
  readonly changes: readonly RepairChange[];
}

/** The most characters of argument text a `json_syntax` change quotes (before and after). */
const MAX_QUOTED_TEXT = 4096;

/** @internal Whether the tool's calls are repaired (`@Tool({ repair })` over the toolkit's `repair`). */
export function repairs(run: CallState, entry: ToolEntry): boolean {
  return (entry.behaviour.repair ?? run.parts.repair) === 'safe';
}

/** A text as a change quotes it: preset values redacted before it is cut, so that no part of one stays at the cut. */
function quoted(text: string, scrub: Scrub | undefined): string {
  return boundInput(scrub ? scrub(text) : text, MAX_QUOTED_TEXT);
}

/** The model's text as one object: strict JSON of a JSON-encoded object, or jsonrepair's reading. */
function repairText(raw: string, scrub: Scrub | undefined): { args: Record<string, unknown>; change: RepairChange } | undefined {
  let inner: unknown;
  try {
    inner = JSON.parse(raw);
  } catch {
    const repaired = repairJsonSyntax(raw);
    if (repaired === undefined) return undefined;
    const change: RepairChange = { path: '', before: quoted(raw, scrub), after: quoted(repaired.text, scrub), kind: 'json_syntax' };
    return { args: repaired.value, change };
  }
  // arguments encoded twice: a JSON string whose text is the object
  if (typeof inner !== 'string' || inner.length > MAX_REPAIR_CHARS) return undefined;
  try {
    const parsed: unknown = JSON.parse(inner);
    if (!isPlainObject(parsed)) return undefined;
    return { args: parsed, change: { path: '', before: quoted(raw, scrub), after: quoted(inner, scrub), kind: 'json_from_string' } };
  } catch {
    return undefined;
  }
}

/**
 * @internal The call's arguments repaired (see SPEC "Repair") so that the tool's schema accepts
 * them, with what the repair changed; `undefined` when no safe repair makes them valid. `parsed`: the arguments as sent, `undefined` when their text is malformed.
 * A call that names a preset parameter is never repaired.
 */
export function repairArguments(run: CallState, entry: ToolEntry, parsed: Record<string, unknown> | undefined): Repaired | undefined {
  const changes: RepairChange[] = [];
  let args = parsed;
  if (args === undefined) {
    const raw = run.call.arguments;
    const text = typeof raw === 'string' ? repairText(raw, redaction(run)) : undefined;
    if (text === undefined) return undefined;
    changes.push(text.change);
    args = entry.stripNulls !== undefined ? entry.stripNulls(text.args) : text.args;
  }
  if (entry.presets !== undefined && entry.presets.some(({ name }) => Object.prototype.hasOwnProperty.call(args, name))) return undefined;
  if (changes.length === 0 || argumentProblems(run, entry, args) !== undefined) {
    const coerced = coerceArguments(args, entry.schema);
    if (coerced === undefined || argumentProblems(run, entry, coerced.args) !== undefined) return undefined;
    changes.push(...coerced.changes);
    args = coerced.args;
  }
  return { args, changes };
}
