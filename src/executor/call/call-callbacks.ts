import type { ClientRequestHandler, ClientRequests } from '../../model/client-requests';
import { AsyncTrack } from '../async/async-calls';
import type { AsyncCompletion } from '../async/async-completion';
import type { CallLink } from './call-link';
import type { HookPhase } from './run-hooks';
import { ChainResolver } from '../chain-resolver';
import type { ToolLogEntry } from '../../model/tool-emitter';
import type { ToolProgress } from '../../model/tool-types';
import { reportLog, reportProgress } from './emit-events';
import { redaction, timeoutError, type CallState } from './call-state';
import { redactDeep } from '../presets/redact';

/**
 * @internal The callbacks of a call ({@link CallLink}) that neither move it on nor end it: its
 * attempts' progress and logs, who answers their requests to the client and how those leave
 * (redacted), the timeout error, and the helpers made on first use (the context chain, the async
 * completion, the hooks' client). The call run inherits them; its own callbacks are those that
 * move the call on. No constructor of its own, so making a run costs no more than a flat class.
 */
export abstract class CallCallbacks implements Pick<CallLink, 'progress' | 'log' | 'clientHandler' | 'outgoing' | 'timeoutReason' | 'resolver' | 'asyncCompletion' | 'deliverAsync'> {
  protected abstract chain: ChainResolver | undefined;
  protected abstract asyncTrack: AsyncTrack | undefined;
  protected abstract hooks: HookPhase | undefined;

  /** @internal The context chain of the call (created on first use). */
  resolver(this: CallCallbacks & CallState): ChainResolver {
    return (this.chain ??= new ChainResolver(this, this.options, this.parts));
  }

  /** @internal What the call's hooks ask the client through (created on first use), cancelled with the call. */
  hookRequests(this: CallCallbacks & CallState): ClientRequests {
    return this.hooks!.requests(this);
  }

  /** @internal The call's completion handle (the call is tracked from its first use). */
  asyncCompletion(this: CallCallbacks & CallState): AsyncCompletion {
    if (this.asyncTrack === undefined) {
      this.asyncTrack = new AsyncTrack();
      if (this.done) this.asyncTrack.settle(this, this.final!);
    }
    return this.asyncTrack.completion(this);
  }

  /** @internal */
  deliverAsync(this: CallCallbacks & CallState, value: unknown, failed: boolean): boolean {
    return this.asyncTrack !== undefined && this.asyncTrack.deliver(this, value, failed);
  }

  /** @internal */
  progress(this: CallState, progress: ToolProgress, attempt: number): void {
    reportProgress(this, progress, attempt);
  }

  /** @internal */
  log(this: CallState, entry: ToolLogEntry, attempt: number): void {
    reportLog(this, entry, attempt);
  }

  /** @internal */
  clientHandler(this: CallState): ClientRequestHandler | undefined {
    return this.options.client ?? this.parts.clientRequests;
  }

  /** @internal */
  outgoing(this: CallState, request: unknown): unknown {
    const scrub = redaction(this);
    return scrub ? redactDeep(request, scrub) : request;
  }

  /** @internal */
  timeoutReason(this: CallState): unknown {
    return timeoutError(this);
  }
}
