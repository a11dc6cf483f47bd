import { MalformedArguments } from '../../model/call-arguments';
import type { RepairChange } from '../../model/repair-types';
import type { Stop } from './call-end';
import { repairArguments, repairs } from './call-repair';
import type { CallState } from './call-state';
import { argumentProblems, invalidArguments, malformedArguments, parseArguments, validateInTime, validationTimedOut } from './call-validate';
import type { RoutedEntry } from '../executor-parts';
import type { ToolEntry } from '../tool-entry';
import { ProblemList } from '../validation/validation';

/**
 * @internal Arguments that passed the schema after a repair (`repairs`), or that still wait for
 * their asynchronous checks (`problems` set: class-validator's and the Standard Schema libraries'
 * join it, in the same answer as the schema's).
 */
export class CheckedArguments {
  constructor(
    readonly args: Record<string, unknown>,
    /** Set when checks that wait are still to run. */
    readonly problems: ProblemList | undefined,
    /** What a safe repair changed to get `args`. */
    readonly repairs: readonly RepairChange[] | undefined = undefined,
    /** With `repairs`: what the model sent, answered instead when the checks that wait refuse the repaired arguments. */
    readonly sent: MalformedArguments | CheckedArguments | undefined = undefined,
  ) {}
}

/**
 * @internal The call's arguments parsed, repaired when the tool's `repair` is on and they need it,
 * and validated by the tool's schema: valid arguments as they are (the common case: nothing
 * allocated), {@link CheckedArguments} after a repair or when checks that wait remain, or why they
 * are not valid (`MALFORMED_ARGUMENTS`, `INVALID_ARGUMENTS`).
 */
export function checkArguments(run: CallState, routed: RoutedEntry): Record<string, unknown> | CheckedArguments | Stop {
  const entry = routed.entry;
  const parsed = parseArguments(run, routed);
  const args = parsed instanceof MalformedArguments ? undefined : parsed;
  const problems = args !== undefined ? argumentProblems(run, entry, args) : undefined;
  const later = entry.dtos !== undefined || entry.standard !== undefined;
  if ((args === undefined || problems !== undefined) && repairs(run, entry)) {
    const repaired = repairArguments(run, entry, args);
    if (repaired !== undefined) {
      // a Standard Schema library or class-validator may still refuse repaired arguments: the call then answers what was sent
      const sent = args === undefined ? (parsed as MalformedArguments) : new CheckedArguments(args, problems);
      return new CheckedArguments(repaired.args, later ? new ProblemList() : undefined, repaired.changes, sent);
    }
  }
  if (args === undefined) return malformedArguments(entry, parsed as MalformedArguments);
  if (later) return new CheckedArguments(args, problems ?? new ProblemList());
  return problems !== undefined ? invalidArguments(entry, problems) : args;
}

/**
 * @internal The checks of `checked` that wait, within the tool's `timeoutMs` (after a repair, the
 * library's first): whether they passed (their problems join `checked.problems`), or `TIMEOUT`.
 */
export async function checkLater(run: CallState, entry: ToolEntry, checked: CheckedArguments): Promise<boolean | Stop> {
  const problems = checked.problems!;
  if (!(await validateInTime(run, entry, checked.args, problems, checked.repairs !== undefined))) return validationTimedOut(run, entry);
  return problems.empty;
}
