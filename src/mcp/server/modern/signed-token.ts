import { createHmac, timingSafeEqual } from 'node:crypto';

/** @internal How a kind of signed token is read: its prefix, its key, its size bound, its name in refusals. */
export interface SignedTokenKind {
  readonly prefix: string;
  readonly key: Uint8Array;
  /** The longest token accepted, in characters (checked before any crypto or JSON work). */
  readonly maxChars: number;
  /** What refusals call it (`'state'`, `'handle'`). */
  readonly noun: string;
  /** The error of a refusal that says `why`. */
  readonly refuse: (why: string) => Error;
}

/** @internal `payload` as `<prefix><base64url JSON>.<HMAC-SHA256 of prefix and body>`. */
export function signToken(kind: Pick<SignedTokenKind, 'prefix' | 'key'>, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${kind.prefix}${body}.${macOf(kind, body)}`;
}

/**
 * @internal The JSON payload of a token signed with `kind`'s key: the type and size first, then
 * the signature (compared in constant time), then the JSON. The caller checks the payload's shape.
 *
 * @throws what `kind.refuse` makes, naming what is wrong (never quoting the token).
 */
export function openToken(kind: SignedTokenKind, token: unknown): unknown {
  if (typeof token !== 'string') throw kind.refuse('it must be a string');
  if (token.length > kind.maxChars) throw kind.refuse(`it is too large (${token.length} characters; the most is ${kind.maxChars})`);
  const dot = token.lastIndexOf('.');
  const foreign = `it is not a ${kind.noun} this server issued`;
  if (!token.startsWith(kind.prefix) || dot <= kind.prefix.length) throw kind.refuse(foreign);
  const body = token.slice(kind.prefix.length, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(macOf(kind, body), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw kind.refuse('its signature does not match: it was altered, or signed with another key');
  }
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    throw kind.refuse(foreign);
  }
}

function macOf(kind: Pick<SignedTokenKind, 'prefix' | 'key'>, body: string): string {
  return createHmac('sha256', kind.key).update(`${kind.prefix}${body}`).digest('base64url');
}
