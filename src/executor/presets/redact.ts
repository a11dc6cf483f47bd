import { isToolResult } from '../../model/results';
import { resultTexts } from '../../model/content-text';
import type { ToolContent } from '../../model/tool-content';
import type { ToolResult, ToolResultError } from '../../model/tool-types';
import { isContentValue, toToolResult } from '../call/convert';
import { replaceSecrets, SecretMatcher } from './secret-forms';

/** The text that replaces a preset value wherever it would leak. */
export const REDACTED = '[REDACTED]';

/**
 * Literal secrets whose text is shorter than this are ignored: redacting `'a'` or `42` would
 * shred every text. Applies to strings and to the decimal text of numbers alike.
 */
export const MIN_SECRET_LENGTH = 4;

/** Rewrites one text, replacing whatever must not leave. */
export type Scrub = (text: string) => string;

/** How deep {@link redactDeep} looks before it replaces the rest. */
const MAX_DEPTH = 32;

/**
 * A {@link Scrub} replacing every form of each secret (`secretForms`: raw, JSON-escaped,
 * URL-encoded in every form JavaScript produces, percent escapes in either case); `undefined` when
 * no secret is long enough to redact.
 */
export function literalScrub(secrets: Iterable<string>, replacement: string = REDACTED): Scrub | undefined {
  const matchers = new Map<string, SecretMatcher>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || matchers.has(secret)) continue;
    matchers.set(secret, new SecretMatcher(secret));
  }
  if (matchers.size === 0) return undefined;
  return matchersScrub([...matchers.values()], replacement);
}

/**
 * A {@link Scrub} replacing every form of the secrets of `matchers`. It reads the array on every
 * call: a caller may keep it up to date in place.
 */
export function matchersScrub(matchers: readonly SecretMatcher[], replacement: string = REDACTED): Scrub {
  return (text) => replaceSecrets(text, matchers, replacement);
}

/**
 * Adds the secret texts of a preset value of any shape to `into`: a string of
 * {@link MIN_SECRET_LENGTH}+ characters, the decimal text of a number or bigint of as many
 * characters (`1234`, `-12.5`), and those leaves of arrays, plain objects, Maps and Sets at any
 * depth (Map keys and object keys are names, not secrets). Booleans, `null` and shorter values
 * are not distinctive enough to redact.
 */
export function collectSecrets(value: unknown, into: Set<string>, depth = 0): void {
  if (typeof value === 'string') {
    if (value.length >= MIN_SECRET_LENGTH) into.add(value);
    return;
  }
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) {
    const text = String(value);
    if (text.length >= MIN_SECRET_LENGTH) into.add(text);
    return;
  }
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return;
  const items = value instanceof Map ? value.values() : value instanceof Set || Array.isArray(value) ? value.values() : Object.values(value);
  for (const item of items) collectSecrets(item, into, depth + 1);
}

function isError(value: object): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/** True when the JSON text of `value` (its `toJSON`, a Date's ISO text…) changes under `scrub`, or cannot be read. */
function jsonChanges(value: object, scrub: Scrub): boolean {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return true; // cannot be inspected: assume the worst
  }
  return json !== undefined && scrub(json) !== json;
}

/**
 * The one redaction walk of toolwright (preset values in the executor, `createRedactor`,
 * `createRedactionHook`): a copy of `value` with every text passed through `scrub`, at any depth.
 * Returns `value` itself when nothing changed, and copies only what changed.
 *
 * - strings are scrubbed; a number or bigint whose decimal text changes becomes `replacement`;
 * - plain objects and arrays are copied (keys are scrubbed too); Maps and Sets become new Maps
 *   and Sets of redacted entries;
 * - an Error becomes a new Error of the same name with its message, name, stack, `cause` chain,
 *   `errors` (AggregateError) and own fields redacted;
 * - anything with a `toJSON` (a Date…) whose JSON text changes, a typed array whose UTF-8 text
 *   changes, and a class instance whose fields or JSON text change become `replacement`;
 * - cycles, values deeper than 32 levels and objects whose fields throw become `replacement`.
 */
export function redactDeep(value: unknown, scrub: Scrub, replacement: string = REDACTED): unknown {
  return new Walk(scrub, replacement).value(value, 0);
}

class Walk {
  /** Objects being walked or walked already: a cycle or a shared object is walked once. */
  private readonly seen = new Map<object, unknown>();

  constructor(
    private readonly scrub: Scrub,
    private readonly replacement: string,
  ) {}

  value(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case 'string':
        return this.scrub(value);
      case 'number':
      case 'bigint': {
        const text = String(value);
        return this.scrub(text) === text ? value : this.replacement;
      }
      case 'object':
        break;
      default:
        return value;
    }
    if (value === null) return value;
    if (this.seen.has(value)) return this.seen.get(value);
    if (depth > MAX_DEPTH) return this.replacement;
    this.seen.set(value, this.replacement);
    let safe: unknown;
    try {
      safe = this.object(value, depth + 1);
    } catch {
      safe = this.replacement; // a throwing getter or a hostile Proxy: nothing of it goes out
    }
    this.seen.set(value, safe);
    return safe;
  }

  private object(value: object, depth: number): unknown {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const safe = this.value(item, depth);
        if (safe !== item) (copy ??= value.slice())[i] = safe;
      }
      return copy ?? value;
    }
    if (isError(value)) return this.error(value, depth);
    if (value instanceof Map) return this.map(value, depth);
    if (value instanceof Set) {
      const items: unknown[] = [...value];
      const safe = items.map((item) => this.value(item, depth));
      return safe.every((item, i) => item === items[i]) ? value : new Set(safe);
    }
    if (ArrayBuffer.isView(value)) {
      const text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
      return this.scrub(text) === text ? value : this.replacement;
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function' && jsonChanges(value, this.scrub)) return this.replacement;
    const proto: unknown = Object.getPrototypeOf(value);
    const fields = this.fields(value as Record<string, unknown>, depth);
    if (proto === Object.prototype || proto === null) return fields;
    // A class instance keeps its identity only when nothing in it (fields, JSON text) changes.
    return fields === value && !jsonChanges(value, this.scrub) ? value : this.replacement;
  }

  /** `value`'s own enumerable fields redacted (keys too): `value` itself when nothing changed, else a plain copy. */
  private fields(value: Record<string, unknown>, depth: number, skip?: ReadonlySet<string>): Record<string, unknown> {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      if (skip?.has(key)) continue;
      const item = value[key];
      const safeKey = this.scrub(key);
      const safe = this.value(item, depth);
      if (safe === item && safeKey === key) continue;
      copy ??= { ...value };
      if (safeKey !== key) delete copy[key];
      copy[safeKey] = safe;
    }
    return copy ?? value;
  }

  private map(value: Map<unknown, unknown>, depth: number): Map<unknown, unknown> {
    let changed = false;
    const entries: [unknown, unknown][] = [];
    for (const [key, item] of value) {
      const safeKey = this.value(key, depth);
      const safe = this.value(item, depth);
      if (safeKey !== key || safe !== item) changed = true;
      entries.push([safeKey, safe]);
    }
    return changed ? new Map(entries) : value;
  }

  private error(value: Error, depth: number): Error {
    const message = this.scrub(String(value.message));
    const name = this.scrub(String(value.name));
    const stack = typeof value.stack === 'string' ? this.scrub(value.stack) : undefined;
    const hasCause = 'cause' in value;
    const cause = hasCause ? this.value(value.cause, depth) : undefined;
    const errors = (value as Partial<AggregateError>).errors;
    const safeErrors = Array.isArray(errors) ? this.value(errors, depth) : errors;
    const fields = this.fields(value as unknown as Record<string, unknown>, depth, ERROR_FIELDS);
    const unchanged =
      message === value.message && name === value.name && stack === value.stack && cause === value.cause && safeErrors === errors && fields === (value as object);
    if (unchanged) return value;
    const copy = hasCause ? new Error(message, { cause }) : new Error(message);
    for (const key of Object.keys(fields)) if (!ERROR_FIELDS.has(key)) (copy as unknown as Record<string, unknown>)[key] = fields[key];
    copy.name = name;
    copy.stack = stack ?? `${name}: ${message}`;
    if (safeErrors !== undefined) (copy as Error & { errors?: unknown }).errors = safeErrors;
    return copy;
  }
}

/** Fields of an Error that {@link Walk} redacts on their own. */
const ERROR_FIELDS: ReadonlySet<string> = new Set(['message', 'name', 'stack', 'cause', 'errors']);

/** Fields of a ToolResult that {@link redactResult} redacts on their own. */
const RESULT_FIELDS: ReadonlySet<string> = new Set(['forLLM', 'forUser', 'error', 'data', 'content']);

/** The base64 text of a binary part (image, audio, blob resource), if it has one. */
function binaryOf(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const p = part as { type?: unknown; data?: unknown; resource?: { blob?: unknown } };
  if ((p.type === 'image' || p.type === 'audio') && typeof p.data === 'string') return p.data;
  if (p.type === 'resource' && typeof p.resource === 'object' && p.resource !== null && typeof p.resource.blob === 'string') return p.resource.blob;
  return undefined;
}

/** True when `base64` holds something `scrub` would change: in its text, or in the UTF-8 text of its bytes. */
function binaryLeaks(base64: string, scrub: Scrub): boolean {
  if (scrub(base64) !== base64) return true;
  const decoded = Buffer.from(base64, 'base64').toString('utf8');
  return scrub(decoded) !== decoded;
}

/**
 * A copy of content parts with every text passed through `scrub` (`content` itself when nothing
 * changed): text, embedded text resources, URIs, names, titles, descriptions, media types and
 * annotations. A binary part (image, audio, blob resource) cannot be edited without breaking it:
 * when its base64 text or the UTF-8 text of its bytes holds a match, the whole part becomes a text
 * part reading `replacement` (its annotations kept: a part for the user only stays so).
 */
export function redactContent(content: readonly ToolContent[], scrub: Scrub, replacement: string = REDACTED): readonly ToolContent[] {
  if (!Array.isArray(content)) return redactDeep(content, scrub, replacement) as readonly ToolContent[];
  let copy: ToolContent[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const part: unknown = content[i];
    const binary = binaryOf(part);
    let safe: unknown;
    if (binary !== undefined && binaryLeaks(binary, scrub)) {
      const annotations = (part as { annotations?: unknown }).annotations;
      safe = { type: 'text', text: replacement, ...(annotations !== undefined ? { annotations: redactDeep(annotations, scrub, replacement) } : {}) };
    } else {
      safe = redactDeep(part, scrub, replacement);
    }
    if (safe !== part) (copy ??= content.slice())[i] = safe as ToolContent;
  }
  return copy ?? content;
}

/**
 * The texts of `redacted` (the redacted copy of `result.content`) when `result`'s texts were
 * made from its parts (as `contentResult` makes them): made again from the redacted parts, since
 * a text quotes a long URI or name cut short, and a cut secret would no longer be found in it.
 */
function remadeTexts(result: ToolResult, redacted: readonly ToolContent[], scrub: Scrub): { forLLM: string; forUser: string | undefined } | undefined {
  if (!Array.isArray(result.content) || !Array.isArray(redacted)) return undefined;
  const before = resultTexts(result.content);
  if (before.forLLM !== result.forLLM || before.forUser !== result.forUser) return undefined;
  const after = resultTexts(redacted);
  return { forLLM: scrub(after.forLLM), forUser: after.forUser === undefined ? undefined : scrub(after.forUser) };
}

/**
 * A copy of `result` with `forLLM`, `forUser`, `error` (every field of it), `data` and `content`
 * ({@link redactContent}) redacted, and any other field a tool put on it (`result` itself when
 * nothing changed).
 */
export function redactResult(result: ToolResult, scrub: Scrub, replacement: string = REDACTED): ToolResult {
  const content = result.content === undefined ? undefined : redactContent(result.content, scrub, replacement);
  const remade = content !== result.content ? remadeTexts(result, content!, scrub) : undefined;
  const forLLM = remade !== undefined ? remade.forLLM : scrub(result.forLLM);
  const forUser = remade !== undefined ? remade.forUser : result.forUser === undefined ? undefined : scrub(result.forUser);
  const error = result.error === undefined ? undefined : { ...result.error };
  // a plain copy: redactDeep keeps its shape (a class instance would become `replacement`)
  const safeError = error === undefined ? undefined : (redactDeep(error, scrub, replacement) as ToolResultError);
  const data = result.data === undefined ? undefined : redactDeep(result.data, scrub, replacement);
  let extras: Record<string, unknown> | undefined;
  for (const key of Object.keys(result)) {
    if (RESULT_FIELDS.has(key)) continue;
    const value = (result as unknown as Record<string, unknown>)[key];
    // `silent`, `isError`, `async` and absent fields hold no text
    if (typeof value === 'boolean' || value === undefined || value === null) continue;
    const safe = typeof value === 'string' ? scrub(value) : redactDeep(value, scrub, replacement);
    if (safe !== value) (extras ??= {})[key] = safe;
  }
  const same = forLLM === result.forLLM && forUser === result.forUser && safeError === error && data === result.data && content === result.content;
  if (same && extras === undefined) return result;
  const copy: ToolResult = { ...result, ...extras, forLLM };
  if (forUser !== undefined) copy.forUser = forUser;
  if (safeError !== error) copy.error = safeError;
  if (data !== undefined) copy.data = data;
  if (content !== undefined) copy.content = content;
  return copy;
}

/**
 * The {@link ToolResult} of a value a tool produced, redacted: a value is redacted before it is
 * serialised (the JSON text made from it then holds no secret in any escaping) and that text
 * once more after; a ToolResult (or content parts a tool returned) goes through {@link redactResult}.
 */
export function redactedToolResult(value: unknown, scrub: Scrub): ToolResult {
  if (isToolResult(value)) return redactResult(value, scrub);
  if (isContentValue(value)) return redactResult(toToolResult(value), scrub);
  const result = toToolResult(typeof value === 'string' ? value : redactDeep(value, scrub));
  result.forLLM = scrub(result.forLLM);
  return result;
}
