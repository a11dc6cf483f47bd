import type { ContextResolver, ToolCallContext } from '../../model/agent-tool';
import { ClientRequests } from '../../model/client-requests';
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../../model/tool-emitter';
import { ToolkitError } from '../../errors';
import type { ToolProgress, ToolResult } from '../../model/tool-types';
import type { CallLink } from './call-link';
import { isPending, settleValue, type SettleScope } from './convert';
import type { DeadlineScheduler, DeadlineTarget, Deadline } from '../deadlines';

/** Where an attempt stands. */
export enum AttemptPhase {
  Running = 0,
  Succeeded = 1,
  Threw = 2,
  TimedOut = 3,
  Aborted = 4,
}

/**
 * @internal One attempt of a call, and the {@link ToolCallContext} the tool sees. The tool's
 * `AbortController` is created only when the tool reads `signal` (creating one costs more than
 * the rest of a call); a timeout or caller abort that came first leaves the new signal aborted.
 */
export class Attempt implements ToolCallContext, DeadlineTarget, SettleScope {
  /** How the attempt ended (`Running` until then). */
  phase: AttemptPhase = AttemptPhase.Running;
  /** The settled return value (`Succeeded`), what was thrown (`Threw`), or the timeout error (`TimedOut`). */
  value: unknown = undefined;
  /** The session the call belongs to, if any (always set, so every attempt has one shape). */
  readonly sessionId: string | undefined;
  #call: CallLink;
  #controller: AbortController | undefined = undefined;
  #aborted = false;
  #abortReason: unknown = undefined;
  #deadline: Deadline | undefined = undefined;
  #resolve: ((result: ToolResult | Promise<ToolResult>) => void) | undefined = undefined;
  #cleanups: (() => void)[] | undefined = undefined;
  #emit: ((progress: ToolProgress | string) => void) | undefined = undefined;
  #log: ((level: LogLevel, data: unknown, logger?: string) => void) | undefined = undefined;
  #client: ClientRequests | undefined = undefined;

  constructor(
    call: CallLink,
    /** The id of the call being answered. */
    readonly callId: string,
    /** The tool's name. */
    readonly toolName: string,
    /** 1 for the first attempt, then 2, 3… */
    readonly attempt: number,
    sessionId: string | undefined,
    /** When the attempt started (ms since the epoch); -1 for the first attempt (it starts with the call). */
    readonly startedAt: number,
  ) {
    this.#call = call;
    this.sessionId = sessionId;
  }

  /** Fires on timeout or when the caller aborts. */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = this.#controller = new AbortController();
      if (this.#aborted) controller.abort(this.#abortReason);
    }
    return controller.signal;
  }

  /** Context objects along the call > agent > toolkit chain. */
  get context(): ContextResolver {
    return this.#call.resolver();
  }

  /** Streams progress to `events$` and the caller's `onProgress` (a bound function: safe to destructure). */
  get emit(): (progress: ToolProgress | string) => void {
    return (this.#emit ??= (progress) => this.report(typeof progress === 'string' ? { message: progress } : progress));
  }

  /** Logs to `events$` and the caller's `onLog` (a bound function: safe to destructure). */
  get log(): (level: LogLevel, data: unknown, logger?: string) => void {
    return (this.#log ??= (level, data, logger) => {
      if (!isLogLevel(level)) {
        throw new ToolkitError('INVALID_OPTIONS', `Tool '${this.toolName}' logged at level ${JSON.stringify(String(level)).slice(0, 40)}, which is none of ${LOG_LEVELS.join(', ')}.`, { tool: this.toolName });
      }
      if (this.phase === AttemptPhase.Running) this.#call.log(logger === undefined ? { level, data } : { level, data, logger }, this.attempt);
    });
  }

  /** Requests to the client that made the call (sampling, elicitation), cancelled with the attempt's signal. */
  get client(): ClientRequests {
    if (this.#client === undefined) {
      const call = this.#call;
      const attempt = this;
      this.#client = new ClientRequests(call.clientHandler(), {
        toolName: this.toolName,
        get signal() {
          return attempt.signal;
        },
        redact: (request) => call.outgoing(request),
        phase: 'tool',
      });
    }
    return this.#client;
  }

  /** False once the attempt ended. */
  get live(): boolean {
    return this.phase === AttemptPhase.Running;
  }

  /** Progress of this attempt; dropped once it ended. */
  report(progress: ToolProgress): void {
    if (this.phase === AttemptPhase.Running) this.#call.progress(progress, this.attempt);
  }

  /** Runs `cleanup` when the attempt ends (at once when it already has). */
  onEnd(cleanup: () => void): void {
    if (this.phase !== AttemptPhase.Running) cleanup();
    else (this.#cleanups ??= []).push(cleanup);
  }

  /**
   * Waits for a pending return value under an optional timeout. Resolves, once the attempt ended
   * however it ended (settled, threw, timed out, aborted), with what the call makes of it
   * (`attemptEnded`); never rejects. One Promise per attempt: the call continues from `end()`
   * instead of chaining further Promises.
   */
  wait(value: unknown, timeoutMs: number, deadlines: DeadlineScheduler): Promise<ToolResult> {
    return new Promise<ToolResult>((resolve) => {
      this.#resolve = resolve;
      if (timeoutMs > 0) this.#deadline = deadlines.schedule(timeoutMs, this);
      (value instanceof Promise ? (value as Promise<unknown>) : settleValue(value, this)).then(
        (settled) => (isPending(settled) ? this.settleNested(settled) : this.settle(AttemptPhase.Succeeded, settled)),
        (error: unknown) => this.settle(AttemptPhase.Threw, error),
      );
    });
  }

  /** A Promise that resolved to an Observable or async generator. */
  private settleNested(value: unknown): void {
    settleValue(value, this).then(
      (settled) => this.settle(AttemptPhase.Succeeded, settled),
      (error: unknown) => this.settle(AttemptPhase.Threw, error),
    );
  }

  /**
   * Ends with what the tool produced, unless its deadline passed first: a body that blocked the
   * event loop past its deadline settles before the timer can fire, and is a timeout all the same.
   */
  private settle(phase: AttemptPhase.Succeeded | AttemptPhase.Threw, value: unknown): void {
    const deadline = this.#deadline;
    if (deadline !== undefined && Date.now() >= deadline.at) this.onDeadline();
    else this.end(phase, value);
  }

  /** The deadline passed: end as timed out and fire the tool's signal. */
  onDeadline(): void {
    this.#deadline = undefined;
    const reason = this.#call.timeoutReason();
    if (this.end(AttemptPhase.TimedOut, reason)) this.abortSignal(reason);
  }

  /** The caller aborted: end as aborted and fire the tool's signal with the caller's reason. */
  abortByCaller(reason: unknown): void {
    if (this.end(AttemptPhase.Aborted, undefined)) this.abortSignal(reason);
  }

  /** Ends the attempt (first call wins); returns whether this call ended it. */
  end(phase: AttemptPhase, value: unknown): boolean {
    if (this.phase !== AttemptPhase.Running) return false;
    this.phase = phase;
    this.value = value;
    const deadline = this.#deadline;
    if (deadline !== undefined) {
      this.#deadline = undefined;
      deadline.cancel();
    }
    const cleanups = this.#cleanups;
    if (cleanups !== undefined) {
      this.#cleanups = undefined;
      for (const cleanup of cleanups) {
        try {
          cleanup();
        } catch {
          // a failing unsubscribe must not keep the call from answering
        }
      }
    }
    const resolve = this.#resolve;
    if (resolve !== undefined) {
      this.#resolve = undefined;
      resolve(this.#call.attemptEnded());
    }
    return true;
  }

  private abortSignal(reason: unknown): void {
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }
}
