import { createHash } from 'node:crypto';
import type { ContextKey, ToolExecutionContext } from '../model/execution-context';
import { isPlainObject } from '../utils/plain-object';
import { Principal } from '../model/principal';
import { describeContextKey, principalPlain, PRINCIPAL_NAME, rebuildContext, travelPlain, type TravellingContexts } from '../model/travelling-contexts';
import { ToolkitError } from '../errors';

export type { TravellingContexts } from '../model/travelling-contexts';

/** @internal What a job carries: never a preset value (those are bound on the worker). */
export interface ToolJobData {
  /** The format's version. */
  readonly v: 1;
  readonly tool: string;
  readonly callId: string;
  readonly sessionId?: string;
  /** The validated model arguments. */
  readonly args: Record<string, unknown>;
  /** Travelling context values by their declared name. */
  readonly context?: Record<string, unknown>;
  /** When the caller's timeout runs out (ms since the epoch). */
  readonly deadlineAt?: number;
}

/** @internal The largest job a caller enqueues, as JSON (a call with more arguments or context is refused). */
export const MAX_JOB_CHARS = 1_000_000;

/**
 * @internal The longest job data a worker parses: {@link MAX_JOB_CHARS} of a call's identity
 * (tool, call id, session id, arguments, context) plus the field names, format and deadline
 * around them. Longer data was not written by `queueTools`: it is refused unread.
 */
export const MAX_JOB_DATA_CHARS = MAX_JOB_CHARS + 1_024;

/**
 * @internal The job id of a call: a digest of everything the call is (tool, call id, session,
 * arguments, travelling context), so that enqueuing the same call again finds its job (never a
 * second run), while two calls that differ in anything — the same call id in two sessions, or
 * for two users — never share one. `chars` is the length of that text, the call's size as queued.
 */
export function identify(data: ToolJobData): { readonly jobId: string; readonly chars: number } {
  const text = JSON.stringify([data.tool, data.callId, data.sessionId ?? null, data.args, data.context ?? null]);
  return { jobId: `tw-${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`, chars: text.length };
}

/** @internal True for a job id {@link identify} can make (a cancel message naming anything else is ignored). */
export function isToolJobId(id: string): boolean {
  return id.length === 35 && /^tw-[\w-]{32}$/.test(id);
}

/** @internal The declared name of each travelling context key (what {@link encodeContext} looks keys up in). */
export function travelNames(declared: TravellingContexts): ReadonlyMap<ContextKey, string> {
  return new Map(Object.entries(declared).map(([name, key]) => [key, name]));
}

/**
 * @internal The travelling part of `context` as plain JSON by declared name (`names`, see {@link travelNames}). `needed` are the
 * keys the tool injects: each must be declared (else `INVALID_CONTEXT` naming it and the fix). A
 * value that cannot become JSON is `INVALID_CONTEXT` too: nothing is dropped silently.
 */
export function encodeContext(
  context: ToolExecutionContext,
  names: ReadonlyMap<ContextKey, string>,
  needed: readonly ContextKey[] | undefined,
  tool: string,
): Record<string, unknown> | undefined {
  for (const key of needed ?? []) {
    if (!names.has(key) && key !== Principal) throw untravelled(key, tool);
  }
  let out: Record<string, unknown> | undefined;
  for (const key of context.keys()) {
    const name = names.get(key);
    if (name === undefined) continue;
    const value = context.get(key);
    (out ??= {})[name] = travelPlain(
      key,
      value,
      (reason, cause) => new ToolkitError('INVALID_CONTEXT', `The ${describeContextKey(key)} context of the call cannot travel to the workers of tool '${tool}': ${reason}.`, { tool, cause }),
    );
  }
  const principal = context.get(Principal);
  if (principal instanceof Principal && !names.has(Principal)) (out ??= {})[PRINCIPAL_NAME] = principalPlainOf(principal, tool);
  return out;
}

function principalPlainOf(principal: Principal, tool: string): Record<string, unknown> {
  const plain = principalPlain(principal);
  if (plain === undefined) throw new ToolkitError('INVALID_CONTEXT', `The claims of the caller's principal cannot travel to the workers of tool '${tool}': they are not JSON.`, { tool });
  return plain;
}

/** The error of a context key the tool injects that no travelling declaration names. */
export function untravelled(key: ContextKey, tool: string): ToolkitError {
  const name = describeContextKey(key);
  const suggested = /^[A-Za-z]\w*$/.test(name) ? `${name[0].toLowerCase()}${name.slice(1)}: ${name}` : `name: ${name}`;
  return new ToolkitError(
    'INVALID_CONTEXT',
    `Tool '${tool}' injects the ${name} context, which cannot travel to its workers: declare it in the contexts of queueTools and createToolWorker, e.g. contexts: { ${suggested} }.`,
    { tool },
  );
}

/** @internal The worker's context of a job: each travelled value rebuilt by its declaration. */
export function decodeContext(values: Record<string, unknown> | undefined, declared: TravellingContexts, tool: string): ToolExecutionContext {
  return rebuildContext(values, declared, "this worker does not declare: add it to createToolWorker's contexts", (why) => new ToolkitError('INVALID_CONTEXT', `A call of tool '${tool}' ${why}.`, { tool }));
}

/** @internal The job's data, checked: a job written by something else than `queueTools` is refused, not run. */
export function parseJobData(data: unknown): ToolJobData | string {
  if (!isPlainObject(data)) return 'the job data is not an object';
  const { v, tool, callId, sessionId, args, context, deadlineAt } = data as Record<string, unknown>;
  if (v !== 1) return `the job data has format ${JSON.stringify(v)?.slice(0, 20)}, not 1 (a toolwright version mismatch between caller and worker?)`;
  if (typeof tool !== 'string' || typeof callId !== 'string') return 'the job data names no tool or call id';
  if (!isPlainObject(args)) return 'the job arguments are not an object';
  if (sessionId !== undefined && typeof sessionId !== 'string') return 'the job session id is not a string';
  if (context !== undefined && !isPlainObject(context)) return 'the job context is not an object';
  if (deadlineAt !== undefined && typeof deadlineAt !== 'number') return 'the job deadline is not a number';
  return data as unknown as ToolJobData;
}
