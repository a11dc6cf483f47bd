import { isObservable, type Observable } from 'rxjs';
import { contentResult, isMadeContent } from '../../model/content-results';
import { isToolResult, toolResult } from '../../model/results';
import { isFor } from '../../model/content-text';
import type { TextResourceContents, ToolContent } from '../../model/tool-content';
import type { ToolProgress, ToolResult } from '../../model/tool-types';

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

/** True for an async generator (or any async iterator with `next`). */
export function isAsyncIterator(value: unknown): value is AsyncGenerator<unknown, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncGenerator)[Symbol.asyncIterator] === 'function' &&
    typeof (value as AsyncGenerator).next === 'function'
  );
}

/** True when `value` still has to be settled (a thenable, an Observable or an async generator). */
export function isPending(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' && isThenable(value);
  return isThenable(value) || isObservable(value) || isAsyncIterator(value);
}

/** Progress of a yielded value: a string is a message, a number is progress, an object as is. */
export function toProgress(value: unknown): ToolProgress {
  if (typeof value === 'string') return { message: value };
  if (typeof value === 'number') return { progress: value };
  if (typeof value === 'object' && value !== null) return value as ToolProgress;
  return { data: value };
}

/** The attempt a value is settled for: it may end early (timeout, abort) and then stops the work. */
export interface SettleScope {
  /** False once the attempt ended; a draining generator stops pulling. */
  readonly live: boolean;
  /** Runs `cleanup` when the attempt ends (at once if it already has). */
  onEnd(cleanup: () => void): void;
  /** Receives a yielded value of an async generator as progress. */
  report(progress: ToolProgress): void;
}

/**
 * Settles what a tool returned: awaits Promises, takes the last value of an Observable
 * (unsubscribing when the attempt ends first), and drains an async generator (each yield is
 * progress, the return value is the result; the generator is `return()`ed when the attempt ends
 * first). Nested forms (a Promise of an Observable…) settle too.
 */
export function settleValue(value: unknown, scope: SettleScope): Promise<unknown> {
  try {
    if (isThenable(value)) return Promise.resolve(value).then((v) => (isPending(v) ? settleValue(v, scope) : v));
    if (isObservable(value)) return lastOf(value, scope);
    if (isAsyncIterator(value)) return drain(value, scope);
    return Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}

function lastOf(source: Observable<unknown>, scope: SettleScope): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let last: unknown;
    const subscription = source.subscribe({
      next: (v) => {
        last = v;
      },
      error: reject,
      complete: () => resolve(last),
    });
    scope.onEnd(() => subscription.unsubscribe());
  });
}

async function drain(generator: AsyncGenerator<unknown, unknown>, scope: SettleScope): Promise<unknown> {
  scope.onEnd(() => {
    // Finishes the generator (its finally blocks run); queued behind a pending next() if any.
    generator.return(undefined).then(undefined, () => undefined);
  });
  while (scope.live) {
    const step = await generator.next();
    if (!scope.live) break;
    if (step.done) return isPending(step.value) ? settleValue(step.value, scope) : step.value;
    scope.report(toProgress(step.value));
  }
  return undefined;
}

function stringify(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/** True for a part made by a content helper, or a non-empty array of them: a tool may return those as its result. */
export function isContentValue(value: unknown): value is ToolContent | readonly ToolContent[] {
  return isMadeContent(value) || (Array.isArray(value) && value.length > 0 && value.every(isMadeContent));
}

/**
 * Converts a settled return value into a {@link ToolResult}: text as is, a part made by a content
 * helper (or a non-empty array of them) as a content result, anything else as JSON (kept as `data`).
 */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === 'string') return toolResult(value);
  if (isToolResult(value)) return value;
  if (value === undefined || value === null) return toolResult(EMPTY_RESULT_TEXT);
  if (isContentValue(value)) return contentResult(value);
  return toolResult(stringify(value), value);
}

/** Cuts `text` to `max` characters, keeping head and tail and saying how much was cut. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = (cut: number) => `\n[… ${cut} characters truncated …]\n`;
  // A limit too small for the note keeps just the head.
  if (max < note(text.length).length + 2) return text.slice(0, Math.max(0, max));
  const budget = max - note(text.length).length;
  const head = Math.ceil(budget * 0.7);
  const tail = budget - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}${note(cut)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

/** The text of a part that carries text (a text part, an embedded text resource). */
function textOfPart(part: ToolContent): string | undefined {
  if (part.type === 'text') return part.text;
  if (part.type === 'resource' && 'text' in part.resource && typeof part.resource.text === 'string') return part.resource.text;
  return undefined;
}

/**
 * Cuts the text parts and embedded text resources of `content` that `who` gets (`'assistant'`:
 * the parts meant for the model; `'all'`: every part) so that together they hold at most `max`
 * characters: each keeps a share of `max` in proportion to its length, cut as {@link truncateText}
 * cuts. Images, audio and blobs are never cut (half an image is no image). Returns `content`
 * itself when it fits.
 */
export function truncateContent(content: readonly ToolContent[], max: number, who: 'assistant' | 'all' = 'assistant'): readonly ToolContent[] {
  const texts: { index: number; text: string }[] = [];
  let total = 0;
  content.forEach((part, index) => {
    if (who === 'assistant' && !isFor(part, 'assistant')) return;
    const text = textOfPart(part);
    if (text === undefined || text.length === 0) return;
    texts.push({ index, text });
    total += text.length;
  });
  if (total <= max) return content;
  const copy = content.slice();
  for (const { index, text } of texts) {
    const cut = truncateText(text, Math.floor((max * text.length) / total));
    const part = content[index];
    copy[index] = part.type === 'resource' ? { ...part, resource: { ...part.resource, text: cut } as TextResourceContents } : { ...part, text: cut } as ToolContent;
  }
  return copy;
}
