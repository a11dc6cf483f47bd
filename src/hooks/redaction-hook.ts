import type { ToolResult } from '../model/tool-types';
import type { HookContext, ToolHook } from '../executor/hook-types';
import { isThenable } from '../executor/call/convert';
import { createRedactor } from './redactor';

/**
 * Options of {@link createRedactionHook}.
 *
 * @example
 * createRedactionHook({ patterns: Object.values(SECRET_PATTERNS), replacement: '***', data: false });
 */
export interface RedactionHookOptions {
  /** Matches of these are scrubbed (e.g. `Object.values(SECRET_PATTERNS)`); the `g` flag is added when missing. */
  patterns?: readonly RegExp[] | undefined;
  /**
   * Literal secrets to scrub, asked for on every call so they can rotate (values shorter than 4
   * characters are ignored). May be async, e.g. read from a secret store's cache.
   */
  secrets?: ((ctx: HookContext) => readonly string[] | Promise<readonly string[]>) | undefined;
  /** The replacement text (default `'[REDACTED]'`). */
  replacement?: string | undefined;
  /** Also scrub the structured `data` of results (default `true`). */
  data?: boolean | undefined;
  /** The hook's name in errors (default `'redaction'`). */
  name?: string | undefined;
}

/**
 * A hook that scrubs configured patterns (API-key shapes, e-mail addresses…) and literal secrets
 * from every result that leaves the toolkit: `forLLM`, `forUser`, `error.message` and `data`.
 * Preset parameter values are already redacted by the executor; this adds what the toolkit
 * cannot know is secret. Add it last so that it sees the final result of earlier hooks.
 *
 * Results the tool produced appear on `events$` (`call_succeeded.result`) before `after` hooks
 * run; to keep those clean in traces, give `instrumentToolkit` the same redactor.
 *
 * @example
 * toolkit.use(createRedactionHook({
 *   patterns: [SECRET_PATTERNS.email, SECRET_PATTERNS.openAiKey, /\bacct-\d{8}\b/g],
 *   secrets: () => [vault.cached('db-password')],
 * }));
 */
export function createRedactionHook(options: RedactionHookOptions): ToolHook {
  const redactor = createRedactor({
    ...(options.patterns ? { patterns: options.patterns } : {}),
    ...(options.replacement !== undefined ? { replacement: options.replacement } : {}),
  });
  const scrubData = options.data ?? true;
  const scrub = (result: ToolResult, secrets: readonly string[] | undefined): ToolResult | undefined => {
    const input = scrubData || result.data === undefined ? result : { ...result, data: undefined };
    const clean = redactor.result(input, secrets);
    if (clean === input) return undefined;
    if (!scrubData && result.data !== undefined) return { ...clean, data: result.data };
    return clean;
  };
  return {
    name: options.name ?? 'redaction',
    after(ctx, result) {
      if (!options.secrets) return scrub(result, undefined);
      const secrets = options.secrets(ctx);
      return isThenable(secrets) ? Promise.resolve(secrets).then((s) => scrub(result, s)) : scrub(result, secrets);
    },
  };
}
