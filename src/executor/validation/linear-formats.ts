import type Ajv from 'ajv/dist/core';

/** `http://`, `https://` or `ftp://`, with ajv-formats' flags (`iu`: `ſ` folds to `s`). */
const URL_SCHEME = /^(?:https?|ftp):\/\//iu;
/** JavaScript's `\s`, as ajv-formats' `\S` and `[^\s]` exclude it. */
const WHITESPACE = /\s/;
/** The last whitespace (linear: from each whitespace, `\S*` stops at the next one). */
const LAST_WHITESPACE = /\s\S*$/;
/**
 * ajv-formats' public IPv4 host (private and link-local ranges excluded by its lookaheads). Run
 * only on hosts of at most 15 characters, so it answers in constant time.
 */
const PUBLIC_IPV4 =
  /^(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))$/;
const LONGEST_IPV4 = 15;

/** A letter of a host name under ajv-formats' `iu` flags: `[a-z\u{00a1}-\u{ffff}]`. */
function isHostLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0xa1 && code <= 0xffff);
}

/** `[a-z0-9\u{00a1}-\u{ffff}]` under `iu`. */
function isHostChar(code: number): boolean {
  return isHostLetter(code) || (code >= 0x30 && code <= 0x39);
}

/** True when `text[at]` starts a surrogate pair: a code point above U+FFFF, outside ajv-formats' host classes. */
function isAstral(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  const next = text.charCodeAt(at + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}

const DOT = 0x2e;
const HYPHEN = 0x2d;

/**
 * ajv-formats' host name in `text[from, to)`: labels of host characters in runs joined by single
 * hyphens (`(?:X+-)*X+`), dot-separated, then a last label of at least two letters. One pass.
 */
function isHostName(text: string, from: number, to: number): boolean {
  const lastDot = text.lastIndexOf('.', to - 1);
  if (lastDot <= from) return false;
  let letters = 0;
  for (let at = lastDot + 1; at < to; at++) {
    if (isAstral(text, at) || !isHostLetter(text.charCodeAt(at))) return false;
    letters++;
  }
  if (letters < 2) return false;
  let previous = DOT;
  for (let at = from; at < lastDot; at++) {
    const code = text.charCodeAt(at);
    if (code === DOT || code === HYPHEN) {
      if (previous === DOT || previous === HYPHEN) return false;
    } else if (isAstral(text, at) || !isHostChar(code)) return false;
    previous = code;
  }
  return previous !== DOT && previous !== HYPHEN;
}

/** True when what follows the host at `end` is an optional `:port` (2 to 5 digits), then nothing or a `/path` without whitespace. */
function isUrlTail(rest: string, end: number, lastWhitespace: number): boolean {
  let path = end;
  if (rest[end] === ':') {
    path = end + 1;
    while (path < rest.length && path - end <= 6 && rest[path] >= '0' && rest[path] <= '9') path++;
    const digits = path - end - 1;
    if (digits < 2 || digits > 5) return false;
  }
  return path === rest.length || (rest[path] === '/' && lastWhitespace < path);
}

/**
 * @internal ajv-formats' `url` format (the same verdict as its regular expression) in time linear
 * in the text. Its expression lets `\S+(?::\S*)?@` (user information) try every split of the
 * text, so hostile text without `@` takes quadratic time (100 KB: seconds). Here each place a host
 * can start (the text's start, or just after an `@` preceded only by non-whitespace) is checked
 * once, and the hosts checked do not overlap.
 *
 * @example
 * isUrl('https://user:pw@example.com:8080/a b'); // false (whitespace in the path)
 * isUrl('ftp://' + 'a:'.repeat(50_000));          // false, in about a millisecond
 */
export function isUrl(text: string): boolean {
  const scheme = URL_SCHEME.exec(text);
  if (scheme === null) return false;
  const rest = text.slice(scheme[0].length);
  const firstWhitespace = rest.search(WHITESPACE);
  const lastWhitespace = rest.search(LAST_WHITESPACE);
  let start = 0;
  for (;;) {
    const nextAt = rest.indexOf('@', start);
    const limit = nextAt === -1 ? rest.length : nextAt;
    let end = start;
    while (end < limit && rest[end] !== ':' && rest[end] !== '/') end++;
    // a host has no '@': the host starting here must end (at ':', '/' or the end) before the next '@'
    const userInfoOk = start === 0 || (start > 1 && (firstWhitespace === -1 || firstWhitespace >= start - 1));
    if (userInfoOk && (end < limit || nextAt === -1)) {
      const ipv4 = end - start <= LONGEST_IPV4 && PUBLIC_IPV4.test(rest.slice(start, end));
      if (isUrlTail(rest, end, lastWhitespace) && (ipv4 || isHostName(rest, start, end))) return true;
    }
    if (nextAt === -1 || (firstWhitespace !== -1 && firstWhitespace < nextAt)) return false;
    start = nextAt + 1;
  }
}

/**
 * @internal Adds ajv-formats' formats and keywords (`formatMinimum`…) to `ajv`, each format
 * checked in time linear in the value: `url`, the one whose expression backtracks
 * quadratically, is {@link isUrl}; the others were measured linear on hostile 100 KB inputs
 * (`bench/format-bench.js`), and `regex` only parses the expression (never runs it).
 *
 * @example
 * addLinearFormats(new Ajv());
 */
export function addLinearFormats(ajv: Ajv): void {
  (require('ajv-formats') as typeof import('ajv-formats')).default(ajv as Parameters<typeof import('ajv-formats').default>[0]);
  ajv.addFormat('url', { type: 'string', validate: isUrl });
}
