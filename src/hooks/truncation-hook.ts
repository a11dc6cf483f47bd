import type { ToolResult } from '../model/tool-types';
import { truncateContent, truncateText } from '../executor/call/convert';
import type { HookContext, ToolHook } from '../executor/hook-types';
import { ToolkitError } from '../errors';

/**
 * A limit, or a function choosing one per call (`undefined`: leave the result as it is).
 *
 * @example
 * const limit: ResultCharLimit = (ctx, result) => (result.isError ? undefined : ctx.tool.name === 'fetch_page' ? 8_000 : 2_000);
 */
export type ResultCharLimit = number | ((ctx: HookContext, result: ToolResult) => number | undefined);

/**
 * Options of {@link createTruncationHook}.
 *
 * @example
 * createTruncationHook({ maxResultChars: 4_000, includeUserText: false });
 */
export interface TruncationHookOptions {
  /** The longest `forLLM` text the model gets: a number, or per call (per session, per tool, per result). */
  maxResultChars: ResultCharLimit;
  /** Also cut `forUser` to the same limit (default `false`: users see the full text). */
  includeUserText?: boolean | undefined;
  /** The hook's name in errors (default `'truncation'`). */
  name?: string | undefined;
}

function checkLimit(limit: number, source: string): number {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new ToolkitError('INVALID_OPTIONS', `${source}: maxResultChars must be a whole number >= 0, got ${String(limit)}.`);
  }
  return limit;
}

/**
 * A hook that cuts long results: the text keeps its head and its tail, with a note in between
 * saying how many characters were cut (the same cut as the toolkit's own `maxResultChars`). The
 * text parts of a rich result the model gets share the same limit; images, audio and blobs are
 * never cut.
 * Use it for limits the per-tool / per-toolkit option cannot express: per session, per model
 * context window, or only for some results.
 *
 * @throws ToolkitError `INVALID_OPTIONS` when a fixed limit is not a whole number >= 0; a
 *   function returning such a limit turns the call into a `HOOK_FAILED` result.
 *
 * @example
 * // sessions of the small model get at most 2,000 characters per result
 * toolkit.use(createTruncationHook({
 *   maxResultChars: (ctx) => (smallModelSessions.has(ctx.sessionId ?? '') ? 2_000 : undefined),
 * }));
 */
export function createTruncationHook(options: TruncationHookOptions): ToolHook {
  const name = options.name ?? 'truncation';
  const fixed = typeof options.maxResultChars === 'number' ? checkLimit(options.maxResultChars, `createTruncationHook('${name}')`) : undefined;
  const choose = typeof options.maxResultChars === 'function' ? options.maxResultChars : undefined;
  return {
    name,
    after(ctx, result) {
      const chosen = fixed ?? choose?.(ctx, result);
      if (chosen === undefined) return undefined;
      const max = checkLimit(chosen, `Hook '${name}'`);
      const cutLLM = result.forLLM.length > max;
      const cutUser = options.includeUserText === true && result.forUser !== undefined && result.forUser.length > max;
      const content = result.content === undefined ? undefined : truncateContent(result.content, max, options.includeUserText === true ? 'all' : 'assistant');
      if (!cutLLM && !cutUser && content === result.content) return undefined;
      const copy: ToolResult = { ...result };
      if (cutLLM) copy.forLLM = truncateText(result.forLLM, max);
      if (cutUser) copy.forUser = truncateText(result.forUser!, max);
      if (content !== undefined) copy.content = content;
      return copy;
    },
  };
}
