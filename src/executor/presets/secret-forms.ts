/**
 * The texts one secret takes in output — raw, JSON-escaped, and URL-encoded in every form
 * JavaScript produces — and a matcher that finds all of them at once, cheaply when none is there.
 */

/** Printable ASCII that a WHATWG URL component leaves as it is, by percent-encode set. */
const FRAGMENT_ENCODED = ' "<>`';
const QUERY_ENCODED = ' "#<>';
const SPECIAL_QUERY_ENCODED = `${QUERY_ENCODED}'`;
const PATH_ENCODED = `${QUERY_ENCODED}?\`{}`;
const USERINFO_ENCODED = `${PATH_ENCODED}/:;=@[\\]^|`;

const HEX = '0123456789ABCDEF';

/** `char` percent-encoded as UTF-8 (a lone surrogate as U+FFFD, as a URL serialises it). */
function percent(char: string): string {
  let out = '';
  for (const byte of Buffer.from(char, 'utf8')) out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  return out;
}

/** A component of a URL that a piece of text can land in. */
type Component = 'path' | 'query' | 'fragment' | 'userinfo';

interface UrlSerialisation {
  /** Printable ASCII percent-encoded in each component. */
  readonly encoded: Readonly<Record<Component, string>>;
  /** True when the text was put in a URL template (`https://host/${s}`): `?` and `#` start the next components. */
  readonly template: boolean;
  /** A special scheme (http, https, ws, ftp, file): `\` in a path is `/`. */
  readonly special: boolean;
  /** Set with `username` / `password`, which encode the text without parsing it (tabs and newlines stay). */
  readonly unparsed?: boolean;
}

/**
 * `text` as the URL serialiser writes it when it is parsed inside component `start`: ASCII tab
 * and newlines dropped (the parser ignores them, setters of user info do not), every other
 * character percent-encoded by its component's set, `%` kept as it is.
 */
function serialise(text: string, start: Component, how: UrlSerialisation): string {
  let component = start;
  let out = '';
  for (const char of how.unparsed ? text : text.replace(/[\t\n\r]/g, '')) {
    if (how.template && component === 'path' && (char === '?' || char === '#')) {
      component = char === '?' ? 'query' : 'fragment';
      out += char;
      continue;
    }
    if (how.template && component === 'query' && char === '#') {
      component = 'fragment';
      out += char;
      continue;
    }
    if (how.special && component === 'path' && char === '\\') {
      out += '/';
      continue;
    }
    const code = char.codePointAt(0)!;
    out += code > 0x20 && code < 0x7f && !how.encoded[component].includes(char) ? char : percent(char);
  }
  return out;
}

const SPECIAL: Readonly<Record<Component, string>> = { path: PATH_ENCODED, query: SPECIAL_QUERY_ENCODED, fragment: FRAGMENT_ENCODED, userinfo: USERINFO_ENCODED };
/** Newer URL parsers (Node 22+ for special schemes, 24+ for the others too) also encode `^` in paths. */
const SPECIAL_CARET: Readonly<Record<Component, string>> = { ...SPECIAL, path: `${PATH_ENCODED}^` };
const NOT_SPECIAL: Readonly<Record<Component, string>> = { ...SPECIAL, query: QUERY_ENCODED };
const NOT_SPECIAL_CARET: Readonly<Record<Component, string>> = { ...SPECIAL_CARET, query: QUERY_ENCODED };

const SERIALISATIONS: readonly [Component, UrlSerialisation][] = [
  ['path', { encoded: SPECIAL, template: true, special: true }],
  ['path', { encoded: SPECIAL_CARET, template: true, special: true }],
  ['path', { encoded: NOT_SPECIAL, template: true, special: false }],
  ['path', { encoded: NOT_SPECIAL_CARET, template: true, special: false }],
  ['path', { encoded: SPECIAL, template: false, special: false }],
  ['path', { encoded: SPECIAL_CARET, template: false, special: false }],
  ['query', { encoded: SPECIAL, template: true, special: true }],
  ['query', { encoded: NOT_SPECIAL, template: true, special: false }],
  ['query', { encoded: SPECIAL, template: false, special: true }],
  ['fragment', { encoded: SPECIAL, template: false, special: true }],
  ['userinfo', { encoded: SPECIAL, template: false, special: true }],
  ['userinfo', { encoded: SPECIAL, template: false, special: true, unparsed: true }],
];

/** `fn(text)`, or nothing when it throws (a lone surrogate has no `encodeURIComponent`). */
function attempt(fn: (text: string) => string, text: string): string | undefined {
  try {
    return fn(text);
  } catch {
    return undefined;
  }
}

/**
 * Every URL-encoded form of `text`: `encodeURIComponent`, `encodeURI`, `URLSearchParams`
 * (`+` for spaces) and the `URL` serialisation of a path, query, fragment or user info (`href`,
 * `pathname`, `search`, `hash`, `username`, `password`), templated or set.
 */
function urlForms(text: string): string[] {
  const forms: (string | undefined)[] = [
    attempt(encodeURIComponent, text),
    attempt(encodeURI, text),
    new URLSearchParams([['', text]]).toString().slice(1),
    ...SERIALISATIONS.map(([start, how]) => serialise(text, start, how)),
  ];
  return forms.filter((form): form is string => form !== undefined);
}

const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * The parts of `secret` that a URL parser puts in components of their own when the secret holds
 * `?` or `#` (`https://host/${secret}` makes a path, a query and a fragment of it), each with its
 * component: what `pathname`, `search` or `hash` alone would show of it.
 */
function urlPieces(secret: string): [Component, string][] {
  const question = secret.indexOf('?');
  const hash = secret.indexOf('#');
  if (question < 0 && hash < 0) return [];
  const pieces: [Component, string][] = [];
  const pathEnd = question < 0 ? hash : hash < 0 ? question : Math.min(question, hash);
  pieces.push(['path', secret.slice(0, pathEnd)]);
  if (question >= 0 && (hash < 0 || question < hash)) pieces.push(['query', secret.slice(question + 1, hash < 0 ? undefined : hash)]);
  if (hash >= 0) pieces.push(['query', secret.slice(0, hash)], ['fragment', secret.slice(hash + 1)]);
  return pieces;
}

/** A piece whose forms are shorter than this is not looked for: a cut keeping fewer characters of a secret is allowed. */
const MIN_PIECE_FORM = 8;

/** The URL forms of a piece of a secret that lands in `component` (see {@link urlPieces}). */
function pieceForms(component: Component, piece: string): string[] {
  const forms = [
    ...[SPECIAL, SPECIAL_CARET].map((encoded) => serialise(piece, component, { encoded, template: false, special: true })),
    ...[NOT_SPECIAL, NOT_SPECIAL_CARET].map((encoded) => serialise(piece, component, { encoded, template: false, special: false })),
  ];
  return forms.filter((form) => form.length >= MIN_PIECE_FORM);
}

/**
 * The texts a secret may take in output: raw and URL-encoded ({@link urlForms}); those URL forms
 * encoded once more as a query parameter (a URL inside a URL); the URL forms of the pieces a URL
 * parser cuts it into ({@link urlPieces}); the URL forms of its JSON-escaped text (JSON text sent
 * as a query parameter); and each of these JSON-escaped once and twice (a URL inside JSON text, a
 * JSON string inside JSON text). No duplicates.
 */
export function secretForms(secret: string): string[] {
  const urls = urlForms(secret);
  const once = jsonEscaped(secret);
  const bases = new Set<string>([secret, ...urls]);
  for (const url of urls) bases.add(encodeURIComponent(url)).add(new URLSearchParams([['', url]]).toString().slice(1));
  for (const [component, piece] of urlPieces(secret)) for (const form of pieceForms(component, piece)) bases.add(form);
  if (once !== secret) for (const form of urlForms(once)) bases.add(form);
  const forms = new Set<string>();
  for (const base of bases) {
    const escaped = jsonEscaped(base);
    forms.add(base).add(escaped).add(jsonEscaped(escaped));
  }
  return [...forms];
}

/** Characters no encoding above changes: a run of them in a secret is in every one of its forms. */
const KEPT = /[A-Za-z0-9_.*-]/;

/** The shortest run of kept characters worth looking for first: shorter ones are in most texts anyway. */
const MIN_ANCHOR = 3;

/**
 * The longest run of {@link KEPT} characters of `secret` (never the two after a `%`, which may
 * change case as hex digits), if it is long enough to tell texts apart.
 */
function anchorOf(secret: string): string | undefined {
  let best = '';
  let run = '';
  for (let i = 0; i < secret.length; i++) {
    const char = secret[i];
    const hex = (i >= 1 && secret[i - 1] === '%') || (i >= 2 && secret[i - 2] === '%');
    if (!hex && KEPT.test(char)) {
      run += char;
      if (run.length > best.length) best = run;
    } else {
      run = '';
    }
  }
  return best.length >= MIN_ANCHOR ? best : undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** A pattern of `forms`, longest first, whose percent escapes match in either case (`%2f`, `%2F`). */
function formsPattern(forms: readonly string[]): RegExp {
  const sources = [...forms]
    .sort((a, b) => b.length - a.length)
    .map((form) => escapeRegExp(form).replace(/%([0-9A-Fa-f])([0-9A-Fa-f])/g, (_, a: string, b: string) => `%${hexClass(a)}${hexClass(b)}`));
  return new RegExp(sources.join('|'), 'g');
}

function hexClass(digit: string): string {
  const lower = digit.toLowerCase();
  const upper = digit.toUpperCase();
  return lower === upper ? digit : `[${upper}${lower}]`;
}

/**
 * @internal How one secret is found in a text: made once per secret (when it is bound or
 * resolved), used for every text after. A text without the secret's {@link anchorOf anchor}
 * (one per URL piece, when it has pieces) holds none of its forms and costs one `includes`; the
 * pattern of every form is built on the first text that has the anchor.
 */
export class SecretMatcher {
  /** Runs of characters one of which every form of the secret contains; `undefined` when some form has none long enough. */
  private readonly anchors: readonly string[] | undefined;
  /** The secret is its only form (letters, digits and `_.*-` only): found with `indexOf`. */
  private readonly plain: boolean;
  private pattern: RegExp | undefined;

  constructor(readonly secret: string) {
    // every form holds the secret or one of its URL pieces, so it holds the anchor of one of them
    const pieces = urlPieces(secret).filter(([component, piece]) => pieceForms(component, piece).length > 0);
    const anchors = pieces.length === 0 ? [anchorOf(secret)] : pieces.map(([, piece]) => anchorOf(piece));
    this.anchors = anchors.every((anchor) => anchor !== undefined) ? [...new Set(anchors as string[])] : undefined;
    this.plain = this.anchors?.[0] === secret;
  }

  /** True when `text` may hold a form of the secret (never false when it does). */
  mayOccur(text: string): boolean {
    if (this.anchors !== undefined) {
      for (const anchor of this.anchors) if (text.includes(anchor)) return true;
      return false;
    }
    const pattern = this.formsPattern();
    pattern.lastIndex = 0;
    return pattern.test(text);
  }

  /** Adds the `[start, end)` of every occurrence of every form in `text`, overlapping ones included, to `into`. */
  collect(text: string, into: [number, number][]): void {
    if (this.plain) {
      for (let at = text.indexOf(this.secret); at >= 0; at = text.indexOf(this.secret, at + 1)) into.push([at, at + this.secret.length]);
      return;
    }
    const pattern = this.formsPattern();
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      into.push([match.index, match.index + match[0].length]);
      pattern.lastIndex = match.index + 1;
    }
  }

  private formsPattern(): RegExp {
    return (this.pattern ??= formsPattern(secretForms(this.secret)));
  }
}

/**
 * @internal `text` with each stretch covered by an occurrence of a secret of `matchers` replaced
 * by one `replacement`: overlapping and adjacent occurrences (of one secret or of two) become one,
 * so no part of either is left. Reads `matchers` on every call (a caller may update it in place).
 */
export function replaceSecrets(text: string, matchers: readonly SecretMatcher[], replacement: string): string {
  let found: SecretMatcher[] | undefined;
  for (const matcher of matchers) if (matcher.mayOccur(text)) (found ??= []).push(matcher);
  if (found === undefined) return text;
  const ranges: [number, number][] = [];
  for (const matcher of found) matcher.collect(text, ranges);
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  let [start, end] = ranges[0];
  for (const [s, e] of ranges) {
    if (s > end) {
      out += text.slice(from, start) + replacement;
      from = end;
      start = s;
    }
    if (e > end) end = e;
  }
  return out + text.slice(from, start) + replacement + text.slice(end);
}
