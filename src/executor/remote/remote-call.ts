import { ToolExecutionContext } from '../../model/execution-context';
import type { ToolResult } from '../../model/tool-types';
import type { AsyncCompletion } from '../async/async-completion';
import type { Attempt } from '../call/attempt';
import type { CallState } from '../call/call-state';
import type { ResolvedExecution } from '../execution-settings';
import type { RemoteCall, RemoteRunner } from './remote-types';
import type { ToolEntry } from '../tool-entry';

const singleAttempts = new WeakMap<ResolvedExecution, ResolvedExecution>();

/** @internal The same settings with one attempt: the caller of a routed tool never retries (its queue does). */
export function singleAttempt(settings: ResolvedExecution): ResolvedExecution {
  if (settings.maxAttempts === 1) return settings;
  let single = singleAttempts.get(settings);
  if (single === undefined) singleAttempts.set(settings, (single = { ...settings, maxAttempts: 1 }));
  return single;
}

/** A routed call as its runner reads it: the call's completion handle is made only when a runner reads it. */
class RoutedCall implements RemoteCall {
  /** The call run, held privately: a runner that logs or serializes its call does not see its state. */
  readonly #run: CallState;

  constructor(
    run: CallState,
    readonly entry: ToolEntry,
    readonly args: Readonly<Record<string, unknown>>,
    readonly context: ToolExecutionContext,
    readonly deadlineAt: number | undefined,
    readonly maxAttempts: number,
    readonly attempt: Attempt,
  ) {
    this.#run = run;
  }

  get callId(): string {
    return this.#run.call.id;
  }

  get sessionId(): string | undefined {
    return this.#run.options.sessionId;
  }

  get asyncCompletion(): AsyncCompletion {
    return this.#run.asyncCompletion();
  }
}

/**
 * @internal Runs `run` through `runner` as its one `attempt` under the call's whole timeout (what
 * the `before` hooks left of it, `budget`): the caller's abort and the timeout fire the attempt's
 * signal, which the runner follows; what the runner answers goes through the same shaping as a
 * local result. `maxAttempts`: what the tool's settings allow (the queue runs them).
 */
export function runRemote(run: CallState, entry: ToolEntry, runner: RemoteRunner, budget: number, attempt: Attempt, maxAttempts: number): Promise<ToolResult> {
  const { context, agentContext } = run.options;
  let answer: Promise<ToolResult>;
  try {
    answer = runner(new RoutedCall(run, entry, run.args!, ToolExecutionContext.merge(agentContext, context), budget > 0 ? Date.now() + budget : undefined, maxAttempts, attempt));
  } catch (error) {
    answer = Promise.reject(error);
  }
  return attempt.wait(answer, budget, run.parts.deadlines);
}
