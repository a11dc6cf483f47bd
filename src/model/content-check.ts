import { quoteInput } from '../utils/quote-input';

/** The longest media type a part may name. */
const MAX_MIME_CHARS = 255;
/** The longest URI a part may hold. */
const MAX_URI_CHARS = 8192;
/** The longest name or title of a resource link. */
const MAX_NAME_CHARS = 1024;

/** An ISO 8601 date-time with seconds and a zone, as MCP's `lastModified` (zod's `iso.datetime({ offset: true })`). */
const ISO_DATE_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** A media type: `type/subtype`, parameters allowed. */
const MIME_TYPE = /^[A-Za-z0-9][\w.+-]*\/[\w.+-]+(?:\s*;.*)?$/s;

const KINDS = "'text', 'image', 'audio', 'resource', 'resource_link'";

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * @internal Why `data` is not standard, padded base64 (the form MCP clients and model APIs
 * decode), or `undefined` when it is. Linear in the length; the message names the first fault.
 *
 * @example
 * base64Problem('aGk=');      // undefined
 * base64Problem('aGk');       // "is not base64: its length 3 is not a multiple of 4 (missing '=' padding?)"
 */
export function base64Problem(data: string): string | undefined {
  if (data.startsWith('data:')) return "is a data: URL, not base64: give only the base64 text after the comma";
  const bad = /[^A-Za-z0-9+/=]/.exec(data);
  if (bad) {
    const ch = bad[0];
    const hint = ch === '-' || ch === '_' ? ' (base64url? use the standard alphabet with + and /)' : /\s/.test(ch) ? ' (remove whitespace and line breaks)' : '';
    return `is not base64: character ${JSON.stringify(ch)} at index ${bad.index}${hint}`;
  }
  if (data.length % 4 !== 0) return `is not base64: its length ${data.length} is not a multiple of 4 (missing '=' padding?)`;
  const pad = data.indexOf('=');
  if (pad !== -1 && (pad < data.length - 2 || data.charCodeAt(data.length - 1) !== 0x3d)) return `is not base64: '=' at index ${pad} is not trailing padding`;
  return undefined;
}

/** @internal The number of bytes standard padded base64 `data` decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, (data.length / 4) * 3 - padding);
}

function textField(part: Record<string, unknown>, key: string, max: number | undefined, required: boolean): string | undefined {
  const value = part[key];
  if (value === undefined) return required ? `${key} is missing` : undefined;
  if (typeof value !== 'string') return `${key} must be a string, got ${kindOf(value)}`;
  if (required && value === '' && max !== undefined) return `${key} is empty`;
  if (max !== undefined && value.length > max) return `${key} is ${value.length} characters long (at most ${max})`;
  return undefined;
}

function mimeProblem(part: Record<string, unknown>, required: boolean, family?: string): string | undefined {
  const problem = textField(part, 'mimeType', MAX_MIME_CHARS, required);
  if (problem !== undefined || part.mimeType === undefined) return problem;
  const mime = part.mimeType as string;
  if (!MIME_TYPE.test(mime)) return `mimeType ${quoteInput(mime)} is not a media type (type/subtype, e.g. 'image/png')`;
  if (family !== undefined && !mime.toLowerCase().startsWith(`${family}/`)) return `mimeType ${quoteInput(mime)} is not a ${family} type ('${family}/…')`;
  return undefined;
}

function binaryProblem(part: Record<string, unknown>, key: 'data' | 'blob', allowEmpty: boolean): string | undefined {
  const value = part[key];
  if (typeof value !== 'string') return value === undefined ? `${key} is missing` : `${key} must be a base64 string, got ${kindOf(value)}`;
  if (value === '' && !allowEmpty) return `${key} is empty`;
  const problem = base64Problem(value);
  return problem === undefined ? undefined : `${key} ${problem}`;
}

/**
 * @internal Why `annotations` are not MCP annotations (`audience` of `'user'`/`'assistant'`,
 * `priority` in 0..1, `lastModified` an ISO 8601 date-time), or `undefined`.
 */
export function annotationsProblem(annotations: unknown): string | undefined {
  if (annotations === undefined) return undefined;
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) return `annotations must be an object, got ${kindOf(annotations)}`;
  const { audience, priority, lastModified } = annotations as Record<string, unknown>;
  if (audience !== undefined) {
    if (!Array.isArray(audience)) return `annotations.audience must be an array of 'user' / 'assistant', got ${kindOf(audience)}`;
    const bad = audience.find((who) => who !== 'user' && who !== 'assistant');
    if (audience.length > 2 || bad !== undefined) {
      return `annotations.audience may hold only 'user' and 'assistant'${bad !== undefined ? `, got ${typeof bad === 'string' ? quoteInput(bad) : kindOf(bad)}` : ''}`;
    }
  }
  if (priority !== undefined && (typeof priority !== 'number' || !(priority >= 0 && priority <= 1))) {
    return `annotations.priority must be a number from 0 to 1, got ${typeof priority === 'number' ? String(priority) : kindOf(priority)}`;
  }
  if (lastModified !== undefined && (typeof lastModified !== 'string' || !ISO_DATE_TIME.test(lastModified))) {
    return `annotations.lastModified must be an ISO 8601 date-time with a zone (e.g. '2026-01-05T10:00:00Z'), got ${typeof lastModified === 'string' ? quoteInput(lastModified) : kindOf(lastModified)}`;
  }
  return undefined;
}

function resourceProblem(resource: unknown): string | undefined {
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) return `resource must be an object, got ${kindOf(resource)}`;
  const r = resource as Record<string, unknown>;
  const problem = textField(r, 'uri', MAX_URI_CHARS, true) ?? mimeProblem(r, false);
  if (problem !== undefined) return `resource.${problem}`;
  const hasText = r.text !== undefined;
  if (hasText === (r.blob !== undefined)) return 'resource must have either text or blob (base64), not both or neither';
  const inner = hasText ? textField(r, 'text', undefined, true) : binaryProblem(r, 'blob', true);
  return inner === undefined ? undefined : `resource.${inner}`;
}

/**
 * @internal Why `part` is not a well-formed content part, or `undefined`. Each kind's required
 * fields, base64 data, media types (`image/…` for images, `audio/…` for audio), bounded URIs
 * and names, and MCP annotations are checked; unknown extra fields are left alone.
 *
 * @example
 * partProblem({ type: 'image', data: 'aGk=', mimeType: 'text/plain' });
 * // "mimeType 'text/plain' is not a image type ('image/…')"
 */
export function partProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return `is ${kindOf(part)}, not a content part object`;
  const p = part as Record<string, unknown>;
  let problem: string | undefined;
  switch (p.type) {
    case 'text':
      problem = textField(p, 'text', undefined, true);
      break;
    case 'image':
    case 'audio':
      problem = binaryProblem(p, 'data', false) ?? mimeProblem(p, true, p.type);
      break;
    case 'resource':
      problem = resourceProblem(p.resource);
      break;
    case 'resource_link':
      problem =
        textField(p, 'uri', MAX_URI_CHARS, true) ??
        textField(p, 'name', MAX_NAME_CHARS, true) ??
        textField(p, 'title', MAX_NAME_CHARS, false) ??
        textField(p, 'description', MAX_URI_CHARS, false) ??
        mimeProblem(p, false);
      if (problem === undefined && p.size !== undefined && !(Number.isSafeInteger(p.size) && (p.size as number) >= 0)) {
        problem = `size must be a whole number of bytes >= 0, got ${typeof p.size === 'number' ? String(p.size) : kindOf(p.size)}`;
      }
      break;
    default:
      return `has type ${typeof p.type === 'string' ? quoteInput(p.type) : kindOf(p.type)}; expected one of ${KINDS}`;
  }
  return problem ?? annotationsProblem(p.annotations);
}

/** @internal How a part is named in messages: its position (from 1) and its kind. */
export function partLabel(part: unknown, index: number): string {
  const type = typeof part === 'object' && part !== null ? (part as { type?: unknown }).type : undefined;
  return `part ${index + 1}${typeof type === 'string' && type.length <= 20 ? ` (${type})` : ''}`;
}

/**
 * @internal Why `content` is not an array of well-formed content parts, or `undefined`: the first
 * malformed part named by position and kind, and how many others are malformed.
 *
 * @example
 * contentProblem([{ type: 'text', text: 'ok' }, { type: 'image', data: 'a-b_', mimeType: 'image/png' }]);
 * // "part 2 (image): data is not base64: character \"-\" at index 1 (base64url? …)"
 */
export function contentProblem(content: unknown): string | undefined {
  if (!Array.isArray(content)) return `content must be an array of parts, got ${kindOf(content)}`;
  let first: string | undefined;
  let others = 0;
  for (let index = 0; index < content.length; index++) {
    const part: unknown = content[index];
    const problem = partProblem(part);
    if (problem === undefined) continue;
    if (first === undefined) first = `${partLabel(part, index)}: ${problem}`;
    else others++;
  }
  return first === undefined ? undefined : others > 0 ? `${first} (and ${others} more malformed part${others === 1 ? '' : 's'})` : first;
}
