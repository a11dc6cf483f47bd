import { isPlainObject } from '../../utils/plain-object';
import { boundInput, quoteInput } from '../../utils/quote-input';
import type { StandardSchemaIssue, StandardSchemaLike, StandardSchemaResult } from '../../model/standard-schema';
import type { Scrub } from '../presets/redact';
import type { ProblemList } from './validation';

/** The longest path a problem line quotes. */
const MAX_PATH_CHARS = 120;
/** The longest library message a problem line quotes. */
const MAX_MESSAGE_CHARS = 240;

/** `at` extended by an issue's path segments (`a.b[0]`); `{ key }` segments (valibot) are unwrapped. */
function issuePath(at: string, path: StandardSchemaIssue['path']): string {
  let out = at;
  for (const segment of path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    const text = typeof key === 'symbol' ? key.toString() : String(key);
    out = typeof key === 'number' || /^\d+$/.test(text) ? `${out}[${text}]` : out ? `${out}.${text}` : text;
  }
  return out;
}

/** Adds the library's issues to `problems`, each as `'path': message`, bounded like every problem line. */
function addIssues(issues: readonly StandardSchemaIssue[], at: string, problems: ProblemList, scrub: Scrub | undefined): void {
  for (let i = 0; i < issues.length; i++) {
    if (problems.full) {
      problems.skip(issues.length - i);
      return;
    }
    const issue = issues[i] as Partial<StandardSchemaIssue> | undefined;
    const path = issuePath(at, Array.isArray(issue?.path) ? issue.path : undefined);
    const raw = typeof issue?.message === 'string' ? issue.message : 'is invalid';
    const message = boundInput(scrub ? scrub(raw) : raw, MAX_MESSAGE_CHARS);
    problems.add(`${path ? quoteInput(path, MAX_PATH_CHARS) : 'arguments'}: ${message}`);
  }
}

/**
 * Validates the arguments that a Standard Schema library owns (zod, valibot, arktype) with that
 * library (sync or async `validate`), in the same round as the schema and class-validator: the
 * library's issues join `problems` (its own messages, bounded); on success its output (defaults,
 * transforms) replaces the value in `args` — for a whole-input schema, the whole arguments.
 * An absent optional argument, or one the schema already reported, is not validated again.
 * `scrub` redacts preset values from the library's messages. Issues that are not a list, or an
 * empty list, still fail the argument; a validator that throws or answers no object rejects (the
 * call then ends as an internal failure, like a throwing tool).
 *
 * @internal
 */
export async function prepareStandard(
  args: Record<string, unknown>,
  parts: readonly { readonly name?: string; readonly schema: StandardSchemaLike }[],
  problems: ProblemList,
  scrub?: Scrub,
): Promise<void> {
  for (const { name, schema } of parts) {
    if (problems.saturated) {
      problems.stopped();
      return;
    }
    if (name !== undefined && (args[name] === undefined || problems.covers(name))) continue;
    const result: unknown = await schema['~standard'].validate(name === undefined ? { ...args } : args[name]);
    if (typeof result !== 'object' || result === null) {
      throw new TypeError(`the ${schema['~standard'].vendor.slice(0, 40)} schema's validate() gave no result object`);
    }
    if ((result as StandardSchemaResult).issues !== undefined) {
      const issues = (result as { issues: unknown }).issues;
      addIssues(Array.isArray(issues) ? (issues as StandardSchemaIssue[]) : [], name ?? '', problems, scrub);
      if (!Array.isArray(issues) || issues.length === 0) problems.add(`${name === undefined ? 'arguments' : quoteInput(name, MAX_PATH_CHARS)}: is invalid`);
      continue;
    }
    const value = (result as { value: unknown }).value;
    if (name !== undefined) {
      args[name] = value;
    } else if (isPlainObject(value)) {
      for (const key of Object.keys(args)) delete args[key];
      // as data: assigning an own `__proto__` key (arktype keeps the model's) would set the prototype
      for (const [key, item] of Object.entries(value)) Object.defineProperty(args, key, { value: item, writable: true, enumerable: true, configurable: true });
    } else {
      problems.add(`arguments: the ${schema['~standard'].vendor.slice(0, 40)} schema of the tool's input must describe an object`);
    }
  }
}
