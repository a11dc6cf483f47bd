import { jsonrepair } from 'jsonrepair';
import { isPlainObject } from '../../utils/plain-object';

/**
 * The longest argument text whose JSON syntax is repaired (64 KiB). jsonrepair works in linear
 * time, but on the event loop: past this size a malformed text is refused as it is today.
 */
export const MAX_REPAIR_CHARS = 65_536;

/**
 * The most strings and numbers (keys included) a text may hold for its syntax to be repaired: the
 * checks after jsonrepair grow with them, and real arguments hold far fewer.
 */
export const MAX_REPAIR_VALUES = 2_000;

/** The deepest nesting of objects and arrays a text may have for its syntax to be repaired. */
export const MAX_REPAIR_DEPTH = 64;

/** What a syntax repair made of a text: the object and its JSON text. */
export interface SyntaxRepair {
  readonly value: Record<string, unknown>;
  readonly text: string;
}

/** What a scan of the model's text found: whether it was cut off, and how many values it spells. */
interface Scan {
  /**
   * The text ends inside a string, after a number, a key or a separator, or inside an array or a
   * nested object; or it holds what has two readings (strings side by side in an array, a lone
   * sign, a call such as `not(true)`).
   */
  readonly truncated: boolean;
  /** Quoted strings (keys included) and numbers outside comments. */
  readonly values: number;
  /** The keys as written: quoted ones without their quotes (escapes kept), and bare words before a `:`. */
  readonly keys: Set<string>;
  /** The other strings as written: quoted ones without their quotes, and bare words. */
  readonly strings: Set<string>;
}

/** The most keys and strings of a repair looked up in the whole text when the scan did not see them as written. */
const MAX_TEXT_SEARCHES = 32;

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
  const keys = new Set<string>();
  const strings = new Set<string>();
  const cut = (): Scan => ({ truncated: true, values, keys, strings });
  let values = 0;
  let last = '';
  let word = '';
  let i = 0;
  while (i < end) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < end && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      if (j >= end) return cut();
      // two strings side by side in an array: two items, or one (as Python reads "a" "b")?
      if (last === 'string' && stack[stack.length - 1] === '[') return cut();
      if (++values > MAX_REPAIR_VALUES) return cut();
      last = last === ':' || stack[stack.length - 1] === '[' ? 'string' : 'key';
      (last === 'key' ? keys : strings).add(text.slice(i + 1, j));
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
    // a call (`not(true)`, `negate(500)`): jsonrepair keeps its argument and drops what it does
    if (ch === '(') return cut();
    if (last === 'number' ? /[-+0-9.eE]/.test(ch) : last !== 'word' && /[-+0-9.]/.test(ch)) {
      if (last !== 'number') {
        if (++values > MAX_REPAIR_VALUES) return cut();
        word = '';
      }
      word += ch;
      last = 'number';
      continue;
    }
    // a sign or a dot alone is no number: reading one would invent it
    if (last === 'number' && !NUMBER.test(word)) return cut();
    if (last === 'word' ? /[\w$]/.test(ch) : /[A-Za-z_$]/.test(ch)) {
      word = last === 'word' ? word + ch : ch;
      last = 'word';
      continue;
    }
    if (last === 'word') {
      (ch === ':' ? keys : strings).add(word);
      if (WORD_END.test(word)) last = 'value';
    }
    word = '';
    if (ch === '{' || ch === '[') {
      // deeper than any real arguments: jsonrepair would recurse that deep
      if (stack.push(ch) > MAX_REPAIR_DEPTH) return cut();
    } else if (ch === '}' || ch === ']') stack.pop();
    last = ch === '}' || ch === ']' ? 'value' : ch;
  }
  if (last === 'word' && WORD_END.test(word)) last = 'value';
  if (last === 'number' && !NUMBER.test(word)) return cut();
  const closed = stack.length === 0 || (stack.length === 1 && stack[0] === '{' && (last === 'value' || last === 'string'));
  return { truncated: !closed, values, keys, strings };
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

/** How a string may be written in the model's text: as it is, JSON-escaped, or with `\'` for `'`. */
function writtenForms(value: string): string[] {
  return [value, JSON.stringify(value).slice(1, -1), value.replace(/'/g, "\\'")];
}

/**
 * True when every key and string of the repaired value is written in the model's text: a key as a
 * key (so that `{city="Paris"}` does not become the key `city=`), a string as one (see
 * {@link writtenForms}). Looked up in what the scan saw; a few (`New York` written bare) are
 * searched in the text, at most {@link MAX_TEXT_SEARCHES}. A repair that made up or reshaped text is no repair.
 */
function keepsText(value: unknown, found: Scan, text: string, searches: { left: number }): boolean {
  if (typeof value === 'string') {
    if (writtenForms(value).some((form) => found.strings.has(form))) return true;
    return searches.left-- > 0 && writtenForms(value).some((form) => text.includes(form));
  }
  if (Array.isArray(value)) return value.every((item) => keepsText(item, found, text, searches));
  if (value === null || typeof value !== 'object') return true;
  for (const [key, item] of Object.entries(value)) {
    const written = writtenForms(key).some((form) => found.keys.has(form)) || (searches.left-- > 0 && writtenKey(key, text));
    if (!written || !keepsText(item, found, text, searches)) return false;
  }
  return true;
}

/** Whether `key` is written in `text` followed by `:` (after its closing quote and spaces). */
function writtenKey(key: string, text: string): boolean {
  for (const form of new Set(writtenForms(key))) {
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
 * {@link MAX_REPAIR_CHARS}, holds more than {@link MAX_REPAIR_VALUES} strings and numbers or nests
 * deeper than {@link MAX_REPAIR_DEPTH}, was
 * cut off (see `scan`), the repair dropped one of its strings or
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
  if (!isPlainObject(value) || countJson(value) < found.values || hasDuplicateKey(repaired) || !keepsText(value, found, text, { left: MAX_TEXT_SEARCHES })) return undefined;
  return { value, text: JSON.stringify(value) };
}
