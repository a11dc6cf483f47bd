import { createHash, createHmac, randomBytes } from 'node:crypto';
import { ToolkitError } from '../../../errors';
import { openToken, signToken, type SignedTokenKind } from './signed-token';
import { resolveStateSecret } from './state-secret';
import type { McpStateStore } from './state-store';

/** Default of {@link RequestStateOptions.ttlMs}: 10 minutes (a person may be answering). */
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;
/** Default of {@link RequestStateOptions.maxChars}: what ~100 KB of recorded answers take, signed and encoded. */
export const DEFAULT_MAX_REQUEST_STATE_CHARS = 128 * 1024;
const PREFIX = 'tw1.';
const NONCE_KEY = 'toolwright:mrtr:nonce:';

/** @internal The methods a round can ask the client. */
export type AskedMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** @internal An answer recorded in a state: the hash of the question it answers (`q`) and the checked answer (`a`). */
export interface RecordedAnswer {
  readonly q: string;
  readonly a: unknown;
}

/** @internal A question a round asked: its key in `inputRequests`, its hash, its method. */
export interface AskedQuestion {
  readonly key: string;
  readonly q: string;
  readonly m: AskedMethod;
}

/** @internal What a state carries between two rounds of one call. */
export interface RoundRecord {
  /** The answers of the earlier rounds, in the order the call used them. */
  readonly answers: readonly RecordedAnswer[];
  /** The questions the last round asked (what `inputResponses` may answer). */
  readonly asked: readonly AskedQuestion[];
}

/** @internal What a state is bound to: who called which tool with which arguments. */
export interface RequestStateBinding {
  /** The authenticated principal's id; `undefined` for an anonymous caller. */
  readonly principal: string | undefined;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** @internal Options of {@link RequestStateCodec}. */
export interface RequestStateOptions {
  /** The HMAC key (≥ 32 bytes; default: `TOOLWRIGHT_MCP_STATE_SECRET`, else random per process); every process of a fleet needs the same one. */
  readonly secret: string | Uint8Array | undefined;
  /** Where used states' nonces are kept, so a state answers one retry fleet-wide. */
  readonly store: McpStateStore;
  /** How long a state stays valid (default 10 minutes). */
  readonly ttlMs?: number | undefined;
  /** The longest state accepted, in characters (default 128 Ki). */
  readonly maxChars?: number | undefined;
  /** The clock, in ms (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/**
 * @internal A refused `requestState` or `inputResponses`: answered as JSON-RPC `-32602` with this
 * short message (it never quotes the state).
 */
export class RequestStateRefusal extends Error {
  /** JSON-RPC "Invalid params". */
  readonly code = -32602;
}

/** @internal A state that passed every check but the one-use check ({@link RequestStateCodec.consume}). */
export interface VerifiedRequestState extends RoundRecord {
  readonly nonce: string;
  readonly expiresAt: number;
}

interface Payload {
  v: 1;
  p: string;
  t: string;
  h: string;
  x: number;
  n: string;
  a: [string, unknown][];
  k: [string, string, AskedMethod][];
}

/** @internal SHA-256 (base64url) of `value` as canonical JSON: object keys sorted at every depth. */
export function canonicalHash(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
  return createHash('sha256').update(json ?? 'undefined').digest('base64url');
}

/**
 * @internal Signs and checks the `requestState` of Multi Round-Trip Requests: HMAC-SHA256 over
 * the principal (as a keyed tag: its id is not readable), the tool, the arguments' hash, an
 * expiry, a nonce, the answers recorded so far and the questions just asked. Signed, not
 * encrypted: the client can read what it carries, which is only what it saw or sent. Each state
 * answers one retry: its nonce is consumed in the shared store.
 */
export class RequestStateCodec {
  private readonly key: Uint8Array;
  private readonly kind: SignedTokenKind;
  private readonly ttlMs: number;
  private readonly maxChars: number;
  private readonly now: () => number;

  constructor(private readonly options: RequestStateOptions) {
    this.key = resolveStateSecret(options.secret);
    this.ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.maxChars = options.maxChars ?? DEFAULT_MAX_REQUEST_STATE_CHARS;
    this.now = options.now ?? Date.now;
    this.kind = { prefix: PREFIX, key: this.key, maxChars: this.maxChars, noun: 'state', refuse: refusal };
    if (typeof this.ttlMs !== 'number' || !(this.ttlMs > 0) || !Number.isFinite(this.ttlMs)) {
      throw new ToolkitError('INVALID_OPTIONS', `MCP option requestStateTtlMs must be a finite number of ms > 0, got ${String(options.ttlMs).slice(0, 40)}.`);
    }
  }

  /** A fresh signed state for the next round of the call `binding` describes. */
  mint(binding: RequestStateBinding, round: RoundRecord): string {
    const payload: Payload = {
      v: 1,
      p: this.principalTag(binding.principal),
      t: binding.tool,
      h: canonicalHash(binding.arguments),
      x: this.now() + this.ttlMs,
      n: randomBytes(16).toString('base64url'),
      a: round.answers.map((answer) => [answer.q, answer.a]),
      k: round.asked.map((question) => [question.key, question.q, question.m]),
    };
    return signToken(this.kind, payload);
  }

  /** True when `state` is small enough to be accepted back (the answers it records may grow it past the limit). */
  fits(state: string): boolean {
    return state.length <= this.maxChars;
  }

  /**
   * Checks `state` for the call `binding` describes: size first (before any crypto or JSON work),
   * then the signature, the expiry and the binding.
   *
   * @throws RequestStateRefusal naming what is wrong.
   */
  verify(state: unknown, binding: RequestStateBinding): VerifiedRequestState {
    const payload = parsePayload(openToken(this.kind, state));
    if (payload.x <= this.now()) throw refusal('it has expired: call the tool again without requestState');
    if (payload.p !== this.principalTag(binding.principal)) throw refusal('it was issued to another principal');
    if (payload.t !== binding.tool) throw refusal('it was issued for another tool');
    if (payload.h !== canonicalHash(binding.arguments)) throw refusal('it was issued for other arguments');
    return {
      nonce: payload.n,
      expiresAt: payload.x,
      answers: payload.a.map(([q, a]) => ({ q, a })),
      asked: payload.k.map(([key, q, m]) => ({ key, q, m })),
    };
  }

  /**
   * Marks a verified state used, fleet-wide (the shared store's `setIfAbsent`).
   *
   * @throws RequestStateRefusal when it was used before.
   */
  async consume(state: VerifiedRequestState): Promise<void> {
    const ttl = Math.max(1_000, state.expiresAt - this.now() + 1_000);
    if (!(await this.options.store.setIfAbsent(`${NONCE_KEY}${state.nonce}`, '1', ttl))) {
      throw refusal('it was used before: each state answers one retry; call the tool again without requestState');
    }
  }

  private principalTag(principal: string | undefined): string {
    const label = principal === undefined ? 'anonymous' : `principal:${principal}`;
    return createHmac('sha256', this.key).update(`toolwright.mrtr.principal\0${label}`).digest('base64url').slice(0, 22);
  }
}

function refusal(why: string): RequestStateRefusal {
  return new RequestStateRefusal(`Invalid requestState: ${why}.`);
}

/** The payload of a correctly signed state (signed by this key, so a bad shape means a key shared with something else). */
function parsePayload(json: unknown): Payload {
  const payload = json as Partial<Payload> | null;
  const ok =
    payload?.v === 1 &&
    typeof payload.p === 'string' &&
    typeof payload.t === 'string' &&
    typeof payload.h === 'string' &&
    typeof payload.x === 'number' &&
    typeof payload.n === 'string' &&
    Array.isArray(payload.a) &&
    payload.a.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string') &&
    Array.isArray(payload.k) &&
    payload.k.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string' && typeof entry[2] === 'string');
  if (!ok) throw refusal('it is not a state this server issued');
  return payload as Payload;
}
