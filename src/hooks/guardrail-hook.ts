import { errorResult } from '../model/results';
import type { ToolResult } from '../model/tool-types';
import type { BeforeHookDecision, HookContext, ToolHook } from '../executor/hook-types';
import { redactDeep, redactResult } from '../executor/presets/redact';

/**
 * What an argument guardrail decides: nothing (the call goes on), block it with a reason the
 * model can act on, replace the arguments, or pass every string argument through `redact`.
 *
 * @example
 * const verdict: ArgumentVerdict = { block: 'limit must be at most 100; ask for fewer rows' };
 */
export type ArgumentVerdict =
  | void
  | undefined
  | { block: string }
  | { rewrite: Record<string, unknown> }
  | { redact: (text: string) => string };

/**
 * What a result guardrail decides: nothing, withhold the result (the model gets an error result
 * with the reason), pass every text of the result through `redact`, or replace the result.
 *
 * @example
 * const verdict: ResultVerdict = { redact: (text) => text.replace(/\b\d{3}-\d{2}-\d{4}\b/g, '[SSN]') };
 */
export type ResultVerdict =
  | void
  | undefined
  | { block: string }
  | { redact: (text: string) => string }
  | { replace: ToolResult };

/**
 * A named check of a call's arguments; the name appears in the messages the model gets.
 *
 * @example
 * const maxRows: ArgumentGuardrail = {
 *   name: 'max-rows',
 *   check: (ctx) => (Number(ctx.arguments.limit) > 100 ? { block: 'limit must be at most 100' } : undefined),
 * };
 */
export interface ArgumentGuardrail {
  /** Names the guardrail in messages. */
  readonly name: string;
  /** Looks at the call (`ctx.arguments` holds the arguments as rewritten by earlier guardrails). */
  check(ctx: HookContext): ArgumentVerdict | Promise<ArgumentVerdict>;
}

/**
 * A named check of a call's result.
 *
 * @example
 * const noStackTraces: ResultGuardrail = {
 *   name: 'no-stack-traces',
 *   check: (result) => (/\n\s+at /.test(result.forLLM) ? { block: 'the tool returned an internal stack trace' } : undefined),
 * };
 */
export interface ResultGuardrail {
  /** Names the guardrail in messages. */
  readonly name: string;
  /** Looks at the result (as changed by earlier guardrails). */
  check(result: ToolResult, ctx: HookContext): ResultVerdict | Promise<ResultVerdict>;
}

/**
 * Options of {@link createGuardrailHook}.
 *
 * @example
 * createGuardrailHook({ name: 'sql-guard', input: [maxRows], output: [noStackTraces] });
 */
export interface GuardrailHookOptions {
  /** Checks of the arguments, in order; the first block wins. A bare function is named `input[i]`. */
  input?: readonly (ArgumentGuardrail | ArgumentGuardrail['check'])[] | undefined;
  /** Checks of the result, in order; the first block wins. A bare function is named `output[i]`. */
  output?: readonly (ResultGuardrail | ResultGuardrail['check'])[] | undefined;
  /** The hook's name in errors (default `'guardrails'`). */
  name?: string | undefined;
}

/**
 * The code of the error result a blocking result guardrail produces: the tool ran, its result was withheld.
 *
 * @example
 * if (result.error?.code === RESULT_WITHHELD) audit.flag(result.toolCallId);
 */
export const RESULT_WITHHELD = 'RESULT_WITHHELD';

function named<G extends { name: string }>(guard: G | G[keyof G], kind: string, index: number): G {
  if (typeof guard === 'function') {
    const fn = guard as (...args: never[]) => unknown;
    return { name: fn.name || `${kind}[${index}]`, check: fn } as unknown as G;
  }
  return guard as G;
}

/**
 * A hook that runs guardrails over the arguments of each call (before the tool runs) and over
 * its result (after). An argument guardrail that blocks denies the call (`DENIED`, the tool does
 * not run); one that rewrites or redacts changes the arguments the tool gets (they are validated
 * again). A result guardrail that blocks turns the result into an error result with code
 * `RESULT_WITHHELD` (the tool did run: the message says so, so the model does not blindly
 * retry); one that redacts or replaces changes what the model and the user get.
 *
 * A guardrail that throws stops the call with a `HOOK_FAILED` result (fail closed).
 *
 * @example
 * toolkit.use(createGuardrailHook({
 *   input: [{
 *     name: 'no-production',
 *     check: (ctx) => String(ctx.arguments.host ?? '').endsWith('.prod')
 *       ? { block: 'production hosts are off limits; use a staging host (*.staging)' } : undefined,
 *   }],
 *   output: [{
 *     name: 'no-card-numbers',
 *     check: () => ({ redact: (text) => text.replace(/\b\d{4}(?:[ -]?\d{4}){3}\b/g, '[CARD]') }),
 *   }],
 * }));
 */
export function createGuardrailHook(options: GuardrailHookOptions): ToolHook {
  const input = (options.input ?? []).map((g, i) => named<ArgumentGuardrail>(g, 'input', i));
  const output = (options.output ?? []).map((g, i) => named<ResultGuardrail>(g, 'output', i));
  const hook: ToolHook = { name: options.name ?? 'guardrails' };
  if (input.length) {
    hook.before = async (ctx): Promise<BeforeHookDecision> => {
      let args: Record<string, unknown> = ctx.arguments;
      let changed = false;
      for (const guard of input) {
        const verdict = await guard.check(changed ? { ...ctx, arguments: args } : ctx);
        if (!verdict) continue;
        if ('block' in verdict) return { action: 'deny', reason: `guardrail '${guard.name}' blocked it: ${verdict.block}` };
        args = 'rewrite' in verdict ? { ...verdict.rewrite } : (redactDeep(args, verdict.redact) as Record<string, unknown>);
        changed = true;
      }
      return changed ? { action: 'rewrite', arguments: args } : undefined;
    };
  }
  if (output.length) {
    hook.after = async (ctx, original) => {
      let result = original;
      for (const guard of output) {
        const verdict = await guard.check(result, ctx);
        if (!verdict) continue;
        if ('block' in verdict) {
          return errorResult(
            `Tool '${ctx.tool.name}' ran, but guardrail '${guard.name}' withheld its result: ${verdict.block}`,
            RESULT_WITHHELD,
          );
        }
        result = 'replace' in verdict ? verdict.replace : redactResult(result, verdict.redact);
      }
      return result === original ? undefined : result;
    };
  }
  return hook;
}
