import { describeThrown, ToolkitError } from '../errors/toolkit-error';
import type { ElicitationRequest, ElicitationResult, ElicitationValue, RootsResult, SamplingRequest, SamplingResult } from './client-request-types';
import { boundInput, quoteInput } from '../utils/quote-input';

/** What a client can be asked: MCP's `sampling`, `elicitation` and `roots` capabilities. */
export type ClientCapability = 'sampling' | 'elicitation' | 'roots';

/** What a {@link ClientRequestHandler} gets with each request. */
export interface ClientRequestOptions {
  /** Fires when the answer is no longer wanted: the call timed out or was aborted, or the tool's own signal fired. */
  readonly signal: AbortSignal;
  /** How long to wait for the answer, when the tool said (else the handler's default). */
  readonly timeoutMs?: number | undefined;
  /** The tool's name for the question ({@link ClientCallOptions.key}), when it gave one. */
  readonly key?: string | undefined;
  /**
   * When in the call the question is asked: `'before'` the tool's body runs (a before-hook, such as
   * the approval pipeline's question), by the tool's body (`'tool'`), or `'after'` it (an
   * after-hook). A handler that answers by running the call again (MCP 2026-07-28) reads it.
   */
  readonly phase?: ClientRequestPhase | undefined;
}

/** When in a call a request to the client is made (see {@link ClientRequestOptions.phase}). */
export type ClientRequestPhase = 'before' | 'tool' | 'after';

/**
 * Who answers a tool's requests to "the client": `createMcpServer` gives every call one that
 * asks the connected MCP client; an application may give the toolkit its own
 * (`new Toolkit({ clientRequests })`, e.g. its own model for sampling and a CLI prompt for
 * elicitation) for calls that come from elsewhere. Its answers reach the tool as they are: the MCP
 * one validates what the (untrusted) client sent; an application's own is trusted.
 *
 * @example
 * const handler: ClientRequestHandler = {
 *   description: 'the console',
 *   supports: (capability) => capability === 'elicitation',
 *   createMessage: () => Promise.reject(new Error('no model here')),
 *   elicit: async (request) => ({ action: (await confirm(request.message)) ? 'accept' : 'decline', content: {} }),
 * };
 */
export interface ClientRequestHandler {
  /** Names who answers in error messages (e.g. `the MCP client 'claude-ai'`); default `the client`. */
  readonly description?: string | undefined;
  /** True when the client can answer requests of `capability`. */
  supports(capability: ClientCapability): boolean;
  /** Asks the client's model (MCP `sampling/createMessage`). */
  createMessage(request: SamplingRequest, options: ClientRequestOptions): Promise<SamplingResult>;
  /** Asks the client's user to fill a form (MCP `elicitation/create`). */
  elicit(request: ElicitationRequest, options: ClientRequestOptions): Promise<ElicitationResult>;
  /** Asks the client for its roots (MCP `roots/list`). Absent: this handler cannot, whatever {@link supports} says. */
  listRoots?(options: ClientRequestOptions): Promise<RootsResult>;
  /**
   * Ends the call's response stream for the client to reconnect and poll (see
   * {@link ClientRequests.closeStream}); true when it did. Absent: the call has no such stream.
   */
  closeStream?(): boolean;
}

/** Options of one request a tool sends through {@link ClientRequests}. */
export interface ClientCallOptions {
  /** Aborts this request (the call's own signal always does). */
  readonly signal?: AbortSignal | undefined;
  /** How long to wait for the answer (default: the handler's; over MCP the server's `clientRequestTimeoutMs`). */
  readonly timeoutMs?: number | undefined;
  /**
   * Names the question for a 2026-07-28 MCP client: its key in the `inputRequests` the server
   * answers with (1-64 letters, digits, `_`, `.` or `-`; default: derived from the question).
   * Answers are still matched to questions by their content.
   */
  readonly key?: string | undefined;
}

/** What a {@link ClientCallOptions.key} may be. */
const QUESTION_KEY = /^[\w.-]{1,64}$/;

/**
 * What the toolkit tells the {@link ClientRequests} of one call: the tool, the call's signal and
 * how to redact what goes out. A unit test may pass any part of it.
 */
export interface ClientRequestScope {
  /** The tool making the requests, for error messages. */
  readonly toolName?: string | undefined;
  /** How the asker reads in error messages, e.g. `Prompt 'review'` (default: `Tool '<toolName>'`). */
  readonly asker?: string | undefined;
  /** The call's signal (timeout, caller abort): it cancels every pending request. */
  readonly signal?: AbortSignal | undefined;
  /** Redacts a request before it leaves (the toolkit removes the tool's preset values). */
  readonly redact?: ((request: unknown) => unknown) | undefined;
  /** When in the call the requests are made (read at each request). */
  readonly phase?: ClientRequestPhase | undefined;
}

const METHODS: Readonly<Record<ClientCapability, string>> = { sampling: 'sampling/createMessage', elicitation: 'elicitation/create', roots: 'roots/list' };
/** The longest text of a client's failure that an error quotes. */
const MAX_FAILURE_CHARS = 2_000;
const OWN_CODES = new Set(['CLIENT_UNAVAILABLE', 'CLIENT_CAPABILITY_MISSING', 'CLIENT_REQUEST_FAILED']);

/**
 * Lets a tool (or a prompt) ask the client that called it: its model (sampling), its user
 * (elicitation) or its roots (the directories it lets servers work in).
 * Declare a parameter of this type (no `@ToolParam`) and the toolkit injects one per call; plain
 * `AgentTool`s find it at `ctx.client`. Over MCP the requests go to the MCP client connected to the
 * call's session (on the call's own stream over HTTP); the call's timeout and abort cancel them.
 * Elsewhere (a direct `callTool`, the agent loop, an adapter) they fail with `CLIENT_UNAVAILABLE`
 * unless the toolkit has a `clientRequests` handler; check {@link ClientRequests.supports} first to
 * offer a fallback.
 *
 * Errors (thrown `ToolkitError`s; uncaught, the call's result carries the code):
 * `CLIENT_UNAVAILABLE` (no client for this call), `CLIENT_CAPABILITY_MISSING` (the client did not
 * declare the capability), `CLIENT_REQUEST_FAILED` (the client failed, timed out or answered
 * something invalid), `INVALID_OPTIONS` (a request MCP cannot carry); an aborted call rejects with
 * its signal's reason. What a tool sends is redacted of its preset values first, as everything
 * else that leaves a call.
 *
 * @example
 * @Tool({ description: 'Summarise a document with the client’s model' })
 * async summarise(@ToolParam({ name: 'text' }) text: string, client: ClientRequests) {
 *   if (!client.supports('sampling')) return text.slice(0, 200);
 *   const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 200 });
 *   return reply.content.type === 'text' ? reply.content.text : '';
 * }
 */
export class ClientRequests {
  constructor(
    private readonly handler?: ClientRequestHandler | undefined,
    private readonly scope: ClientRequestScope = {},
  ) {}

  /** True when some client can be asked in this call (over MCP, or through the toolkit's handler). */
  get available(): boolean {
    return this.handler !== undefined;
  }

  /** True when the client can answer requests of `capability` (false when there is no client). */
  supports(capability: ClientCapability): boolean {
    const handler = this.handler;
    if (handler === undefined || (capability === 'roots' && handler.listRoots === undefined)) return false;
    return handler.supports(capability) === true;
  }

  /**
   * Lets the client poll instead of holding a connection open for a long call (MCP SEP-1699):
   * served by `serveMcpHttp`/`createMcpHttpHandler` with `resumability` on, to a client on
   * protocol 2025-11-25 or later, it ends the call's SSE stream now. The call goes on; what it
   * sends from then on (progress, log messages, requests to the client, the result) is kept in
   * the event store, and the client reconnects after the `retry` delay with `Last-Event-ID` to
   * receive it. May be called again after the client reconnected. Returns `true` when the stream
   * was closed; elsewhere (stdio, JSON responses, no resumability, an older client, a call not
   * made over MCP) it does nothing and returns `false`. `ToolEmitter.closeStream()` does the same.
   */
  closeStream(): boolean {
    return this.handler?.closeStream?.() === true;
  }

  /**
   * Asks the client's model to continue `request.messages` (MCP `sampling/createMessage`).
   *
   * @throws ToolkitError `CLIENT_UNAVAILABLE`, `CLIENT_CAPABILITY_MISSING`, `CLIENT_REQUEST_FAILED`, `INVALID_OPTIONS`.
   */
  createMessage(request: SamplingRequest, options: ClientCallOptions = {}): Promise<SamplingResult> {
    const problem = (): string | undefined => {
      if (!Array.isArray(request?.messages) || request.messages.length === 0) return 'messages must be a non-empty array';
      return Number.isInteger(request.maxTokens) && request.maxTokens > 0 ? undefined : 'maxTokens must be a whole number >= 1';
    };
    return this.send('sampling', options, problem, (handler, settings) => handler.createMessage(this.redacted(request), settings));
  }

  /**
   * Asks the client's user to fill a form (MCP `elicitation/create`); resolves with what the user
   * did. Over MCP, accepted content has been validated against `requestedSchema` and holds only its
   * fields. `T` names the fields' types (it is not checked against the schema).
   *
   * @throws ToolkitError `CLIENT_UNAVAILABLE`, `CLIENT_CAPABILITY_MISSING`, `CLIENT_REQUEST_FAILED`, `INVALID_OPTIONS`.
   */
  elicit<T extends Record<string, ElicitationValue> = Record<string, ElicitationValue>>(
    request: ElicitationRequest,
    options: ClientCallOptions = {},
  ): Promise<ElicitationResult<T>> {
    const ask = (handler: ClientRequestHandler, settings: ClientRequestOptions) => handler.elicit(this.redacted(request), settings);
    return this.send('elicitation', options, () => elicitationProblem(request), ask) as Promise<ElicitationResult<T>>;
  }

  /**
   * Asks the client for its roots (MCP `roots/list`): the directories (or other URIs) its user
   * lets servers work in. Over MCP 2025-11-25 a request to the client; over 2026-07-28 a question
   * of the call's round (as {@link elicit}). The roots are the client's word, shape-checked: treat
   * them as a hint of where to look, never as a permission.
   *
   * @throws ToolkitError `CLIENT_UNAVAILABLE`, `CLIENT_CAPABILITY_MISSING`, `CLIENT_REQUEST_FAILED`, `INVALID_OPTIONS`.
   */
  listRoots(options: ClientCallOptions = {}): Promise<RootsResult> {
    return this.send('roots', options, () => undefined, (handler, settings) => handler.listRoots!(settings));
  }

  private redacted<R>(request: R): R {
    return (this.scope.redact ? this.scope.redact(request) : request) as R;
  }

  private async send<R>(
    capability: ClientCapability,
    options: ClientCallOptions,
    problemOf: () => string | undefined,
    ask: (handler: ClientRequestHandler, settings: ClientRequestOptions) => Promise<R>,
  ): Promise<R> {
    const tool = this.scope.toolName;
    const asker = this.scope.asker ?? (tool !== undefined ? `Tool '${tool}'` : 'A tool');
    const method = METHODS[capability];
    const handler = this.handler;
    if (handler === undefined) {
      throw new ToolkitError(
        'CLIENT_UNAVAILABLE',
        `${asker} asked the client for ${capability} (${method}), but this call has no client to ask: it did not come over MCP ` +
          '(a direct callTool, the agent loop or an adapter made it) and the toolkit has no clientRequests handler. ' +
          "Check client.supports('" + capability + "') and fall back, serve the tool with createMcpServer, or pass new Toolkit({ clientRequests }).",
        toolOption(tool),
      );
    }
    const who = handler.description ?? 'the client';
    if (!this.supports(capability)) {
      throw new ToolkitError(
        'CLIENT_CAPABILITY_MISSING',
        `${asker} asked ${who} for ${capability} (${method}), but it did not declare the '${capability}' capability. ` +
          `Check client.supports('${capability}') first and fall back when it is false.`,
        toolOption(tool),
      );
    }
    const key = options.key;
    const problem = key !== undefined && !(typeof key === 'string' && QUESTION_KEY.test(key)) ? 'key must be 1-64 letters, digits, _, . or -' : problemOf();
    if (problem !== undefined) throw new ToolkitError('INVALID_OPTIONS', `${asker} sent an invalid ${method} request: ${problem}.`, toolOption(tool));
    const link = linkSignals(this.scope.signal, options.signal);
    try {
      link.signal.throwIfAborted();
      const phase = this.scope.phase;
      const settings = { signal: link.signal, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(phase !== undefined ? { phase } : {}), ...(key !== undefined ? { key } : {}) };
      return await ask(handler, settings);
    } catch (error) {
      if (link.signal.aborted) throw link.signal.reason;
      if (ToolkitError.is(error) && OWN_CODES.has(error.code)) throw error;
      throw new ToolkitError(
        'CLIENT_REQUEST_FAILED',
        `${asker} asked ${who} for ${capability} (${method}) and got no usable answer: ${boundInput(describeThrown(error), MAX_FAILURE_CHARS)}`,
        { cause: error, ...toolOption(tool) },
      );
    } finally {
      link.release();
    }
  }
}

function toolOption(tool: string | undefined): { tool?: string } {
  return tool !== undefined ? { tool } : {};
}

const FIELD_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array']);

/** What MCP cannot carry in an elicitation request: a form that is not an object of flat fields. */
function elicitationProblem(request: ElicitationRequest): string | undefined {
  if (typeof request?.message !== 'string') return 'message must be a string';
  const schema = request.requestedSchema as Partial<ElicitationRequest['requestedSchema']> | undefined;
  if (schema?.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
    return "requestedSchema must be { type: 'object', properties: { … } }";
  }
  for (const [name, field] of Object.entries(schema.properties)) {
    const type = (field as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !FIELD_TYPES.has(type)) {
      return `field ${quoteInput(name)} must be a flat field (type 'string', 'number', 'integer', 'boolean' or an 'array' multi-select); MCP forms have no nested objects`;
    }
  }
  return undefined;
}

/** One signal for the call's and the request's own; `release` removes what linking them added. */
function linkSignals(call: AbortSignal | undefined, own: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  if (own === undefined || call === undefined) return { signal: own ?? call ?? new AbortController().signal, release: () => undefined };
  const controller = new AbortController();
  const onCall = () => controller.abort(call.reason);
  const onOwn = () => controller.abort(own.reason);
  if (call.aborted) onCall();
  else if (own.aborted) onOwn();
  call.addEventListener('abort', onCall, { once: true });
  own.addEventListener('abort', onOwn, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      call.removeEventListener('abort', onCall);
      own.removeEventListener('abort', onOwn);
    },
  };
}
