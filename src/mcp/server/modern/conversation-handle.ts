import { createHmac, randomBytes } from 'node:crypto';
import type { ToolkitSession } from '../../../toolkit/sessions/toolkit-session';
import { openToken, signToken, type SignedTokenKind } from './signed-token';

/**
 * The `_meta` key of MCP 2026-07-28 conversation handles: a `tools/call` result carries the
 * conversation's handle under it (when the call changed the conversation, or the request sent one),
 * and a client sends it back under it on any later request (`tools/list`, `tools/call`,
 * `subscriptions/listen`, tasks) to stay in that conversation. The value `'new'` asks for a new
 * conversation, started from the toolkit's defaults. See the README ("Conversations without
 * sessions").
 *
 * @example
 * const result = await client.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
 * const handle = result._meta?.[MCP_CONVERSATION_META_KEY];
 * await client.callTool({ name: 'reset_all', arguments: {}, _meta: { [MCP_CONVERSATION_META_KEY]: handle } });
 */
export const MCP_CONVERSATION_META_KEY = 'io.toolwright/conversation';
/** The `_meta` value that asks for a new conversation. */
export const NEW_CONVERSATION = 'new';
/** The longest handle accepted, in characters (checked before any crypto or JSON work). */
export const MAX_HANDLE_CHARS = 8192;
const PREFIX = 'twc1.';
/** The most groups a handle carries (base groups and a skill's together). */
const MAX_GROUPS = 256;

/** @internal What a conversation holds: the groups equipped, and the active skill with the groups switched on during it. */
export interface ConversationState {
  readonly groups: readonly string[];
  readonly skill?: { readonly name: string; readonly groups: readonly string[] } | undefined;
}

/** @internal A handle that passed every check. */
export interface VerifiedConversation {
  /** The conversation's id: 128 random bits, base64url. */
  readonly id: string;
  readonly state: ConversationState;
}

/**
 * @internal A refused conversation handle: answered as JSON-RPC `-32602` with this short message
 * (it never quotes the handle).
 */
export class ConversationRefusal extends Error {
  /** JSON-RPC "Invalid params". */
  readonly code = -32602;
}

interface Payload {
  v: 1;
  c: string;
  p: string;
  x: number;
  g: string[];
  s?: [string, string[]];
}

/**
 * @internal Mints and checks conversation handles: HMAC-SHA256, with a key derived from the
 * server's state secret (never the secret itself), over the conversation's id, the principal (as a
 * keyed tag: its id is not readable; anonymous callers share one tag), an expiry and the
 * conversation's state (group and skill names). Signed, not encrypted: the client can read the
 * names of the groups and skill it equipped, nothing else. The state travels in the handle, so any
 * process of a fleet that shares the secret answers it, and nothing is stored.
 */
export class ConversationHandles {
  private readonly key: Buffer;
  private readonly kind: SignedTokenKind;

  constructor(
    secret: Uint8Array,
    /** How long a handle stays valid after it was minted. */
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', secret).update('toolwright/mcp conversations v1').digest();
    this.kind = { prefix: PREFIX, key: this.key, maxChars: MAX_HANDLE_CHARS, noun: 'handle', refuse: refusal };
  }

  /** A fresh conversation id (128 random bits). */
  newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /** A handle for conversation `id` of `principal` (`undefined`: anonymous) in `state`, valid for `ttlMs`. */
  mint(principal: string | undefined, id: string, state: ConversationState): string {
    const payload: Payload = { v: 1, c: id, p: this.tag('principal', principal), x: this.now() + this.ttlMs, g: [...state.groups] };
    if (state.skill !== undefined) payload.s = [state.skill.name, [...state.skill.groups]];
    return signToken(this.kind, payload);
  }

  /**
   * Checks `handle` for a request of `principal`: size first, then the signature, the shape, the
   * expiry and the principal.
   *
   * @throws ConversationRefusal naming what is wrong.
   */
  verify(handle: unknown, principal: string | undefined): VerifiedConversation {
    const payload = parsePayload(openToken(this.kind, handle));
    if (payload.x <= this.now()) throw refusal(`it has expired: send '${NEW_CONVERSATION}' to start a new conversation`);
    if (payload.p !== this.tag('principal', principal)) throw refusal('it was issued to another caller');
    const skill = payload.s === undefined ? undefined : { name: payload.s[0], groups: payload.s[1] };
    return { id: payload.c, state: { groups: payload.g, ...(skill !== undefined ? { skill } : {}) } };
  }

  /**
   * The audience tag of a principal's (`kind: 'principal'`) or a conversation's event on a shared
   * event bus: keyed, so neither a principal's id nor a conversation id travels in clear.
   */
  tag(kind: 'principal' | 'conversation', value: string | undefined): string {
    const label = value === undefined ? 'anonymous' : `${kind}:${value}`;
    return createHmac('sha256', this.key).update(`tag\0${label}`).digest('base64url').slice(0, 22);
  }

}

/** @internal The state of `session` as a handle carries it. */
export function conversationStateOf(session: ToolkitSession): ConversationState {
  const state = session.sessionState;
  const skill = state.skill;
  return {
    groups: [...state.baseGroups].sort(),
    ...(skill !== undefined ? { skill: { name: skill.name, groups: [...skill.groups].sort() } } : {}),
  };
}

/** @internal True when two states hold the same groups and skill. */
export function sameConversationState(a: ConversationState, b: ConversationState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function refusal(why: string): ConversationRefusal {
  return new ConversationRefusal(`Invalid conversation handle (_meta '${MCP_CONVERSATION_META_KEY}'): ${why}.`);
}

const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.length <= MAX_GROUPS && value.every((v) => typeof v === 'string');

/** The payload of a correctly signed handle (signed by this key, so a bad shape means a key shared with something else). */
function parsePayload(json: unknown): Payload {
  const payload = json as Partial<Payload> | null;
  const skill = payload?.s;
  const ok =
    payload?.v === 1 &&
    typeof payload.c === 'string' &&
    typeof payload.p === 'string' &&
    typeof payload.x === 'number' &&
    isNames(payload.g) &&
    (skill === undefined || (Array.isArray(skill) && typeof skill[0] === 'string' && isNames(skill[1])));
  if (!ok) throw refusal('it is not a handle this server issued');
  return payload as Payload;
}
