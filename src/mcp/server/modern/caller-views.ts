import { Subscription } from 'rxjs';
import { skip } from 'rxjs/operators';
import type { ToolkitSession } from '../../../toolkit/sessions/toolkit-session';
import type { Toolkit } from '../../../toolkit/toolkit';
import type { ToolView } from '../../../toolkit/tool-view';
import type { McpPrincipal } from '../../shared/mcp-principal';
import {
  MCP_CONVERSATION_META_KEY,
  ConversationHandles,
  conversationStateOf,
  NEW_CONVERSATION,
  sameConversationState,
  type ConversationState,
} from './conversation-handle';

/** A list change of a view, as the listen streams hear it. */
export type ViewChange = 'tools' | 'resources' | 'prompts';

/** @internal What {@link CallerViews} needs of the server's settings. */
export interface CallerViewSettings {
  /** `false`: every caller gets the toolkit's own view (no sessions, no conversations). */
  readonly sessions?: boolean | undefined;
  /** How long a principal's session lives unused, and a conversation handle after it was minted. */
  readonly sessionTtlMs: number;
  /** Called with each session made for a caller (its defaults). */
  readonly onSession?: ((session: ToolkitSession) => void) | undefined;
  /** `false` (stdio: the connection is the conversation): handles are neither read nor returned. */
  readonly conversationHandles?: boolean | undefined;
}

/** @internal A caller's view as one request holds it: the request is served through it until it is released. */
export interface LeasedView {
  readonly view: ToolView;
  /** Ends what the request holds (a conversation's session), once. */
  readonly release?: (() => void) | undefined;
  /** The request's conversation, when it has one (see {@link CallerViews}). */
  readonly conversation?: OpenConversation | undefined;
}

/** @internal A conversation a request runs in. */
export interface OpenConversation {
  readonly id: string;
  readonly session: ToolkitSession;
  /** The state the request found. */
  readonly initial: ConversationState;
  /**
   * How the request came to it: it sent a `handle`, asked for a `new` one, or sent nothing
   * (`implicit`: an anonymous caller's). Unless implicit, every `tools/call` result carries a handle.
   */
  readonly origin: 'handle' | 'new' | 'implicit';
}

interface Live {
  readonly session: ToolkitSession;
  refs: number;
  /** Its changes published to its audience: only once a request came with its handle (nobody else can listen to it). */
  following?: Subscription | undefined;
}

/** The `_meta` of a JSON-RPC message, if it has one. */
function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** @internal What a request's `_meta` says of its conversation: nothing, `'new'`, or a handle (unchecked). */
export function conversationClaimOf(message: unknown): unknown {
  return metaOf(message)?.[MCP_CONVERSATION_META_KEY];
}

/**
 * @internal The views of 2026-07-28 callers, which have no protocol session. With `sessions:
 * false`, the toolkit's own. A request that sends a conversation handle (or `'new'`) in `_meta`
 * runs in that conversation: a toolkit session restored from the handle's signed state (one live
 * session per conversation and process while requests use it). Without one, an authenticated
 * caller runs in its principal's session `principal:<id>`, and an anonymous caller in a new
 * conversation whose handle is returned only when a call changed it. Changes of a principal's
 * session or of a conversation are published to that audience alone (`publish`).
 */
export class CallerViews {
  private readonly greeted = new WeakSet<ToolkitSession>();
  private readonly live = new Map<string, Live>();

  constructor(
    private readonly toolkit: Toolkit,
    private readonly settings: CallerViewSettings,
    readonly handles: ConversationHandles,
    private readonly publish: (audience: string, change: ViewChange) => void,
  ) {}

  /**
   * The view for a request of `principal` whose `_meta` claims `claim`.
   *
   * @throws ConversationRefusal for a handle that is not valid for this caller.
   */
  open(principal: McpPrincipal | undefined, claim: unknown): LeasedView {
    if (this.settings.sessions === false) return { view: this.toolkit };
    if (this.settings.conversationHandles === false) return this.acquire(this.handles.newId(), undefined, 'implicit');
    if (claim === undefined && principal !== undefined) return { view: this.principalSession(principal) };
    if (claim === undefined || claim === NEW_CONVERSATION) return this.acquire(this.handles.newId(), undefined, claim === undefined ? 'implicit' : 'new');
    const verified = this.handles.verify(claim, principal?.id);
    return this.acquire(verified.id, verified.state, 'handle');
  }

  /** The same view held once more, for work that outlives the request (a task): a conversation in the state it has now. */
  hold(view: LeasedView): LeasedView {
    const conversation = view.conversation;
    if (conversation === undefined) return { view: view.view };
    return this.acquire(conversation.id, conversationStateOf(conversation.session), conversation.origin);
  }

  /**
   * Who owns what a request of `principal` with `claim` leaves behind (a round trip's state, a
   * task): the principal; for an anonymous caller that sends a valid handle, its conversation
   * (keyed, never the id in clear); else every anonymous caller alike (`undefined`).
   */
  ownerOf(principal: McpPrincipal | undefined, claim: unknown): string | undefined {
    if (principal !== undefined || this.settings.sessions === false || this.settings.conversationHandles === false) return principal?.id;
    if (claim === undefined || claim === NEW_CONVERSATION) return undefined;
    try {
      return `\0conversation:${this.handles.tag('conversation', this.handles.verify(claim, undefined).id)}`;
    } catch {
      return '\0refused'; // the request itself is refused; its tasks lookups find nothing
    }
  }

  /**
   * The handle a `tools/call` result of `view` carries (`_meta`): for a conversation the caller
   * threads, always (its expiry renewed); for an unthreaded one, when the call changed it.
   */
  handleAfter(principal: McpPrincipal | undefined, view: LeasedView): string | undefined {
    const conversation = view.conversation;
    if (conversation === undefined || conversation.session.closed || this.settings.conversationHandles === false) return undefined;
    const state = conversationStateOf(conversation.session);
    if (conversation.origin === 'implicit' && sameConversationState(state, conversation.initial)) return undefined;
    return this.handles.mint(principal?.id, conversation.id, state);
  }

  /** The audience tags a `subscriptions/listen` stream of `principal` with `claim` hears (beside what every stream hears). */
  audienceOf(principal: McpPrincipal | undefined, claim: unknown): ReadonlySet<string> {
    if (this.settings.sessions === false || claim === NEW_CONVERSATION) return new Set();
    if (claim !== undefined) return new Set([this.handles.tag('conversation', this.handles.verify(claim, principal?.id).id)]);
    return new Set(principal !== undefined ? [this.handles.tag('principal', principal.id)] : []);
  }

  /** Ends the following of live conversations (their sessions close). */
  close(): void {
    for (const live of this.live.values()) {
      live.following?.unsubscribe();
      live.session.close();
    }
    this.live.clear();
  }

  private principalSession(principal: McpPrincipal): ToolkitSession {
    const session = this.toolkit.session(`principal:${principal.id}`, { ttlMs: this.settings.sessionTtlMs });
    if (!this.greeted.has(session)) {
      this.greeted.add(session);
      this.settings.onSession?.(session);
      this.follow(session, this.handles.tag('principal', principal.id));
    }
    return session;
  }

  /** The live session of conversation `id` (made, and restored to `state`, when no request holds it), held until released. */
  private acquire(id: string, state: ConversationState | undefined, origin: OpenConversation['origin']): LeasedView {
    let live = this.live.get(id);
    if (live === undefined || live.session.closed) {
      const session = this.toolkit.session(`conversation:${id}`, { ttlMs: this.settings.sessionTtlMs });
      this.settings.onSession?.(session);
      if (state !== undefined) session.restore(state.groups, state.skill);
      live = { session, refs: 0 };
      this.live.set(id, live);
    }
    if (origin === 'handle') live.following ??= this.follow(live.session, this.handles.tag('conversation', id));
    live.refs++;
    const held = live;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      if (--held.refs > 0) return;
      held.following?.unsubscribe();
      held.session.close();
      if (this.live.get(id) === held) this.live.delete(id);
    };
    const conversation: OpenConversation = { id, session: held.session, initial: conversationStateOf(held.session), origin };
    return { view: held.session, release, conversation };
  }

  /** Publishes the list changes of `session` to `audience` (until the session closes). */
  private follow(session: ToolkitSession, audience: string): Subscription {
    const following = new Subscription();
    following.add(session.activeTools$.pipe(skip(1)).subscribe({ next: () => this.publish(audience, 'tools'), complete: () => following.unsubscribe() }));
    following.add(session.resources.listChanged$.subscribe(() => this.publish(audience, 'resources')));
    following.add(session.prompts.listChanged$.subscribe(() => this.publish(audience, 'prompts')));
    return following;
  }
}
