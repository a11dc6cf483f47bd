import { jsonrepair } from 'jsonrepair';
import { isPlainObject } from '../common/plain-object';

/**
 * The longest argument text whose JSON syntax is repaired (64 KiB). jsonrepair works in linear
 * time, but on the event loop: past this size a malformed text is refused as it is today.
 */
export const MAX_REPAIR_CHARS = 65_536;

/** What a syntax repair made of a text: the object and its JSON text. */
export interface SyntaxRepair {
  readonly value: Record<string, unknown>;
  readonly text: string;
}

/** What a scan of the model's text found: whether it was cut off, and how many values it spells. */
interface Scan {
  /**
   * The text ends inside a string, after a number, a key or a separator, or inside an array or a
   * nested object; or it holds what has two readings (strings side by side in an array, a lone sign).
   */
  readonly truncated: boolean;
  /** Quoted strings (keys included) and numbers outside comments. */
  readonly values: number;
}

const WORD_END = /^(?:true|false|null|True|False|None)$/;
/** A complete number as a model may write one (`5.`, `.5` and `+5` included). */
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Where the text ends, less whitespace and a closing markdown fence. */
function contentEnd(text: string): number {
  let end = text.trimEnd().length;
  if (text.slice(0, end).endsWith('```')) end = text.slice(0, end - 3).trimEnd().length;
  return end;
}

/**
 * Scans the model's text as the repair will read it (double- and single-quoted strings, line and
 * block comments). A text that ends inside a string or a number is cut off: closing it would pass
 * a cut value off as complete. An unclosed object is accepted only at the top level, after a
 * complete value (a closed string, a closed nested value, or a literal).
 */
function scan(text: string): Scan {
  const end = contentEnd(text);
  const stack: string[] = [];
  let values = 0;
  let last = '';
  let word = '';
  let i = 0;
  while (i < end) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < end && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      if (j >= end) return { truncated: true, values };
      // two strings side by side in an array: two items, or one (as Python reads "a" "b")?
      if (last === 'string' && stack[stack.length - 1] === '[') return { truncated: true, values };
      values++;
      last = last === ':' || stack[stack.length - 1] === '[' ? 'string' : 'key';
      word = '';
      i = j + 1;
      continue;
    }
    if (ch === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const close = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      i = close < 0 ? end : close + (text[i + 1] === '/' ? 1 : 2);
      continue;
    }
    i++;
    if (/\s/.test(ch)) continue;
    if (last === 'number' ? /[-+0-9.eE]/.test(ch) : last !== 'word' && /[-+0-9.]/.test(ch)) {
      if (last !== 'number') {
        values++;
        word = '';
      }
      word += ch;
      last = 'number';
      continue;
    }
    // a sign or a dot alone is no number: reading one would invent it
    if (last === 'number' && !NUMBER.test(word)) return { truncated: true, values };
    if (last === 'word' ? /[\w$]/.test(ch) : /[A-Za-z_$]/.test(ch)) {
      word = last === 'word' ? word + ch : ch;
      last = 'word';
      continue;
    }
    if (last === 'word' && WORD_END.test(word)) last = 'value';
    word = '';
    if (ch === '{' || ch === '[') stack.push(ch);
    else if (ch === '}' || ch === ']') stack.pop();
    last = ch === '}' || ch === ']' ? 'value' : ch;
  }
  if (last === 'word' && WORD_END.test(word)) last = 'value';
  if (last === 'number' && !NUMBER.test(word)) return { truncated: true, values };
  const closed = stack.length === 0 || (stack.length === 1 && stack[0] === '{' && (last === 'value' || last === 'string'));
  return { truncated: !closed, values };
}

/** Quoted strings and numbers in strict JSON text; `-1` when an object holds a key twice. */
function countJson(value: unknown): number {
  if (typeof value === 'string' || typeof value === 'number') return 1;
  if (Array.isArray(value)) {
    let n = 0;
    for (const item of value) n += countJson(item);
    return n;
  }
  if (value !== null && typeof value === 'object') {
    let n = 0;
    for (const [, item] of Object.entries(value)) n += 1 + countJson(item);
    return n;
  }
  return 0;
}

/**
 * True when every key and string of the repaired value is written in the model's text: a key
 * followed by `:` (so that `{city="Paris"}` does not become the key `city=`), a string as it is
 * or JSON-escaped. A repair that made up or reshaped text is no repair.
 */
function keepsText(value: unknown, text: string): boolean {
  if (typeof value === 'string') return written(value, text);
  if (Array.isArray(value)) return value.every((item) => keepsText(item, text));
  if (value === null || typeof value !== 'object') return true;
  for (const [key, item] of Object.entries(value)) {
    if (!writtenKey(key, text) || !keepsText(item, text)) return false;
  }
  return true;
}

function written(value: string, text: string): boolean {
  return text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1)) || text.includes(value.replace(/'/g, "\\'"));
}

function writtenKey(key: string, text: string): boolean {
  for (const form of new Set([key, JSON.stringify(key).slice(1, -1)])) {
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      let i = at + form.length;
      if (text[i] === '"' || text[i] === "'") i++;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (text[i] === ':') return true;
    }
  }
  return false;
}

/** True when some object of the JSON text (valid JSON) names one key twice. */
function hasDuplicateKey(text: string): boolean {
  // one entry per open object (its keys so far) or array (`undefined`)
  const stack: (Set<string> | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const keys = stack[stack.length - 1];
      if (expectKey && keys !== undefined) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
      }
      expectKey = false;
      i = j;
    } else if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? new Set() : undefined);
      expectKey = ch === '{';
    } else if (ch === '}' || ch === ']') {
      stack.pop();
    } else if (ch === ',') {
      expectKey = stack[stack.length - 1] !== undefined;
    }
  }
  return false;
}

/**
 * @internal The model's malformed argument text repaired into one object by jsonrepair, or
 * `undefined` when that cannot be done without guessing: the text is longer than
 * {@link MAX_REPAIR_CHARS}, was cut off (see `scan`), the repair dropped one of its strings or
 * numbers or wrote a key or string the text does not hold, an object names a key twice, or the
 * result is no JSON object.
 */
export function repairJsonSyntax(text: string): SyntaxRepair | undefined {
  if (text.length > MAX_REPAIR_CHARS) return undefined;
  const found = scan(text);
  if (found.truncated) return undefined;
  let repaired: string;
  let value: unknown;
  try {
    repaired = jsonrepair(text);
    value = JSON.parse(repaired);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || countJson(value) < found.values || hasDuplicateKey(repaired) || !keepsText(value, text)) return undefined;
  return { value, text: JSON.stringify(value) };
}
