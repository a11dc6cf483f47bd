import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationRequest, ElicitationResult, RootsResult, SamplingRequest, SamplingResult } from '../../../model/client-request-types';
import type { ClientCapability, ClientRequestHandler, ClientRequestOptions } from '../../../model/client-requests';
import { boundInput, quoteInput } from '../../../utils/quote-input';
import { elicitationAnswerOf, type FormValidators } from '../mcp-client-requests';
import { canonicalHash, RequestStateRefusal, type AskedMethod, type RecordedAnswer } from './request-state';

/** @internal An answer a round may replay: `fresh` when it came with this request's `inputResponses` (its key), not from the state. */
export interface ReplayAnswer extends RecordedAnswer {
  readonly fresh?: string | undefined;
}

/** @internal A question of this round that has no answer yet: what goes out in `inputRequests`. */
export interface PendingQuestion {
  readonly key: string;
  readonly q: string;
  readonly m: AskedMethod;
  readonly params: unknown;
}

/** @internal What a {@link ReplayingClientRequests} knows of its call. */
export interface ReplaySettings {
  /** The tool, for messages. */
  readonly toolName: string;
  /** What the client declared in the request's `_meta` (`io.modelcontextprotocol/clientCapabilities`). */
  readonly capabilities: unknown;
  /** True when the tool is read-only or idempotent: its body may run again with the answers. */
  readonly replaySafe: boolean;
  /** The form validators (each form compiled once). */
  readonly forms: FormValidators;
  /** Ends the round: the call is stopped (its signal aborted) and the server answers `input_required`. */
  readonly endRound: () => void;
}

const METHODS: Readonly<Record<ClientCapability, AskedMethod>> = { elicitation: 'elicitation/create', sampling: 'sampling/createMessage', roots: 'roots/list' };

/**
 * @internal The {@link ClientRequestHandler} of one 2026-07-28 `tools/call` round (Multi Round-Trip
 * Requests): a server cannot send the client requests, so the call runs from the start on every
 * round and each question is answered from the answers recorded so far — matched by the hash of
 * the question, in the order asked. The first question without an answer ends the round: it and
 * any other asked in the same turn (`Promise.all`) become the round's `inputRequests`, and the
 * call is stopped.
 *
 * The side-effect rule: questions asked before the tool's body (before-hooks, such as the approval
 * pipeline's) are always replayed; a question from the body (or an after-hook) only when the tool
 * is read-only or idempotent — re-running any other body could repeat what it did before asking.
 * Such a question fails with a message naming the fix, and {@link unsafe} tells the server to end
 * the call with it.
 */
export class ReplayingClientRequests implements ClientRequestHandler {
  /** The answers this round used, in order: what the next round's state records. */
  readonly used: RecordedAnswer[] = [];
  /** The questions without an answer. */
  readonly pending: PendingQuestion[] = [];
  /** An answer of `inputResponses` that failed its form's checks. */
  refusal: RequestStateRefusal | undefined;
  /** Why a question was refused by the side-effect rule. */
  unsafe: string | undefined;
  private readonly queues = new Map<string, ReplayAnswer[]>();
  private readonly asked = new Map<string, number>();
  private ending = false;

  constructor(
    private readonly settings: ReplaySettings,
    answers: readonly ReplayAnswer[],
  ) {
    for (const answer of answers) {
      const queue = this.queues.get(answer.q);
      if (queue === undefined) this.queues.set(answer.q, [answer]);
      else queue.push(answer);
    }
  }

  get description(): string {
    return 'the MCP client';
  }

  supports(capability: ClientCapability): boolean {
    return declaresCapability(this.settings.capabilities, capability);
  }

  async createMessage(request: SamplingRequest, options: ClientRequestOptions): Promise<SamplingResult> {
    return (await this.ask('sampling', request, options)) as SamplingResult;
  }

  async elicit(request: ElicitationRequest, options: ClientRequestOptions): Promise<ElicitationResult> {
    return (await this.ask('elicitation', request, options)) as ElicitationResult;
  }

  async listRoots(options: ClientRequestOptions): Promise<RootsResult> {
    return (await this.ask('roots', {}, options)) as RootsResult;
  }

  private ask(capability: ClientCapability, request: SamplingRequest | ElicitationRequest | Record<string, never>, options: ClientRequestOptions): Promise<unknown> {
    const method = METHODS[capability];
    if (options.phase !== 'before' && !this.settings.replaySafe) return Promise.reject(this.refuseUnsafe(method, options.phase));
    const q = canonicalHash([method, request]);
    const next = this.queues.get(q)?.shift();
    if (next !== undefined) return Promise.resolve(this.replay(capability, request, next));
    const base = options.key ?? `${capability}-${q.slice(0, 16)}`;
    const count = (this.asked.get(base) ?? 0) + 1;
    this.asked.set(base, count);
    const key = count > 1 ? `${base}-${count}` : base;
    this.pending.push({ key, q, m: method, params: request });
    this.end();
    return new Promise((_resolve, reject) => {
      const signal = options.signal;
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }

  /** A recorded answer, checked against its question when it is fresh (the client's, this request). */
  private replay(capability: ClientCapability, request: SamplingRequest | ElicitationRequest | Record<string, never>, answer: ReplayAnswer): unknown {
    let value = answer.a;
    if (answer.fresh !== undefined && capability === 'elicitation') {
      try {
        value = elicitationAnswerOf(this.settings.forms, request as ElicitationRequest, answer.a as ElicitResult);
      } catch (error) {
        const why = boundInput(error instanceof Error ? error.message : String(error), 1_000);
        this.refusal = new RequestStateRefusal(`Invalid inputResponses: ${quoteInput(answer.fresh)}: ${why}`);
        this.end();
        throw this.refusal;
      }
    }
    this.used.push({ q: answer.q, a: value });
    return value;
  }

  private refuseUnsafe(method: AskedMethod, phase: ClientRequestOptions['phase']): Error {
    const where = phase === 'after' ? 'an after-hook of' : 'the body of';
    this.unsafe ??=
      `Tool '${this.settings.toolName}' cannot ask the client (${method}) from ${where} the tool under MCP 2026-07-28: there the call runs again from the start ` +
      'with the answer, and the tool is neither read-only nor idempotent, so what it did before asking could happen twice. ' +
      'Mark it idempotent (annotations: { idempotent: true }, or the MCP option annotations.idempotentHint) when running it again is harmless, ' +
      'or ask in a before-hook, or call it as an MCP task.';
    return new Error(this.unsafe);
  }

  /** Ends the round once, after the current turn: questions asked alongside join it. */
  private end(): void {
    if (this.ending) return;
    this.ending = true;
    setImmediate(this.settings.endRound);
  }
}

/**
 * @internal Whether a 2026-07-28 request's declared client capabilities (its `_meta`) include
 * `capability`; for elicitation, form mode (an empty object means form mode).
 */
export function declaresCapability(declared: unknown, capability: ClientCapability): boolean {
  if (typeof declared !== 'object' || declared === null) return false;
  const entry = (declared as Record<string, unknown>)[capability];
  if (typeof entry !== 'object' || entry === null) return false;
  if (capability === 'elicitation') {
    const modes = entry as { form?: unknown; url?: unknown };
    return modes.form !== undefined || modes.url === undefined;
  }
  return true;
}
