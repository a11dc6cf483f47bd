import { isObservable, lastValueFrom } from 'rxjs';
import { isToolResult, toolResult } from '../common/results';
import type { ToolProgress, ToolResult } from '../common/tool-types';

/** The text a tool that returns nothing answers with. */
export const EMPTY_RESULT_TEXT = 'Done.';

/** True for anything with a callable `then`. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function isAsyncIterator(value: unknown): value is AsyncGenerator<unknown, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncGenerator)[Symbol.asyncIterator] === 'function' &&
    typeof (value as AsyncGenerator).next === 'function'
  );
}

function toProgress(value: unknown): ToolProgress {
  if (typeof value === 'string') return { message: value };
  if (typeof value === 'number') return { progress: value };
  if (typeof value === 'object' && value !== null) return value as ToolProgress;
  return { data: value };
}

/**
 * Settles what a tool returned: awaits Promises, takes the last value of an Observable, and
 * drains an async generator (each yield is progress, the return value is the result).
 * Returns a plain value, or a Promise of one.
 */
export function settle(value: unknown, onProgress: (progress: ToolProgress) => void): unknown {
  if (isThenable(value)) return Promise.resolve(value).then((v) => settle(v, onProgress));
  if (isObservable(value)) return lastValueFrom(value, { defaultValue: undefined });
  if (isAsyncIterator(value)) return drain(value, onProgress);
  return value;
}

async function drain(generator: AsyncGenerator<unknown, unknown>, onProgress: (p: ToolProgress) => void): Promise<unknown> {
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
    onProgress(toProgress(step.value));
  }
}

function stringify(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/** Converts a settled return value into a {@link ToolResult}: text as is, anything else as JSON (kept as `data`). */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === 'string') return toolResult(value);
  if (isToolResult(value)) return value;
  if (value === undefined || value === null) return toolResult(EMPTY_RESULT_TEXT);
  return toolResult(stringify(value), value);
}

/** Cuts `text` to `max` characters, keeping head and tail and saying how much was cut. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = (cut: number) => `\n[… ${cut} characters truncated …]\n`;
  const budget = Math.max(0, max - note(text.length).length);
  const head = Math.ceil(budget * 0.7);
  const tail = budget - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}${note(cut)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}
