import { Observable, isObservable } from 'rxjs';
import type { ContextResolver, ToolCallContext } from '../../model/agent-tool';
import { errorResult } from '../../model/results';
import type { ToolProgress, ToolResult } from '../../model/tool-types';
import { NO_OPTIONS, type CallOptions } from '../../executor/executor-parts';
import { isAsyncIterator, isThenable } from '../../executor/call/convert';
import { describeThrown, ToolkitError } from '../../errors/toolkit-error';
import type { ToolkitErrorCode } from '../../errors';
import { SkillRunScope, type ActivationState } from '../activation';
import type { SkillCallOptions, SkillContext, SkillStep } from './skill-definition';
import type { SkillRecord } from './skill-registry';
import type { Registry } from '../registry';
import type { SkillFrame, ToolView, ViewCalls, ViewParts } from '../tool-view';
import type { ListingParts } from '../visible-tools';

/**
 * @internal What skill runs and the skill meta tools need of their toolkit: the registered tools,
 * the caller's listing rules, the dispatcher their calls go through (batches by the toolkit's
 * settings), and the view a call made by hand comes through.
 */
export interface SkillRunParts extends ListingParts, Pick<ViewParts, 'batches'> {
  readonly registry: Registry;
  /** Where a run's calls go, as a view's do. */
  readonly dispatcher: ViewCalls;
  /** The view of a session (made on first lookup), or the toolkit's own view. */
  viewFor(sessionId: string | undefined): { view: ToolView; state: ActivationState };
}

/** @internal The view a meta tool's call came through and the options it came with. */
export interface CallBinding {
  readonly view: ToolView;
  readonly state: ActivationState;
  readonly options: CallOptions;
  /** Set for calls made by a skill run. */
  readonly frame: SkillFrame | undefined;
}

/**
 * @internal The binding of a meta tool run without the dispatcher (someone called its
 * `tool.execute` by hand): the session named by the context, or the toolkit's own view.
 */
export function fallbackBinding(parts: Pick<SkillRunParts, 'viewFor'>, ctx: ToolCallContext): CallBinding {
  const { view, state } = parts.viewFor(ctx.sessionId);
  return { view, state, options: state.callOptions(NO_OPTIONS), frame: undefined };
}

/** True for what `ctx.callTool` answers when an approval hook held the call (or the tool went async). */
function isPendingResult(result: ToolResult): boolean {
  return result.async && !result.isError;
}

function approvalIdOf(result: ToolResult): string | undefined {
  const data = result.data as { approvalId?: unknown } | undefined;
  return typeof data === 'object' && data !== null && typeof data.approvalId === 'string' ? data.approvalId : undefined;
}

/**
 * @internal One run of an executable skill: the {@link SkillContext} its code sees. Counts tool
 * calls against the cap (the call over the cap stops the run: its signal fires and the run's
 * result becomes `SKILL_LIMIT_EXCEEDED`, whatever the code returns), and runs every call through
 * the toolkit in the invoking call's session and context. A call it refuses (over the cap, after
 * the run ended) is refused through the dispatcher too, so it gets its events like any other.
 */
export class SkillRun implements SkillContext {
  /** Calls made (counted against the cap). */
  private calls = 0;
  /** Calls asked for, refused ones included: each gets its own id (`<invoking call id>.<n>`). */
  private asked = 0;
  private ended = false;
  private failure: ToolResult | undefined = undefined;
  private readonly controller = new AbortController();
  private readonly binding: CallBinding & { readonly frame: SkillFrame };
  /** @internal */
  readonly signal: AbortSignal;

  constructor(
    private readonly parts: SkillRunParts,
    private readonly record: SkillRecord,
    private readonly attempt: ToolCallContext,
    outer: CallBinding,
    nesting: { readonly depth: number; readonly chain: readonly string[] },
    private readonly maxToolCalls: number,
  ) {
    const scope = new SkillRunScope(record.skill.name, record.scope, record.grants, outer.state, parts.registry);
    this.binding = { view: outer.view, state: outer.state, options: outer.options, frame: { depth: nesting.depth, chain: nesting.chain, scope } };
    this.signal = AbortSignal.any([attempt.signal, this.controller.signal]);
  }

  get skill(): string {
    return this.record.skill.name;
  }

  get callId(): string {
    return this.attempt.callId;
  }

  get sessionId(): string | undefined {
    return this.attempt.sessionId;
  }

  get depth(): number {
    return this.binding.frame.depth;
  }

  get toolCalls(): number {
    return this.calls;
  }

  get context(): ContextResolver {
    return this.attempt.context;
  }

  /** Bound: safe to destructure. */
  readonly emit = (progress: ToolProgress | string): void => {
    if (!this.ended) this.attempt.emit(progress);
  };

  callTool(name: string, args: Record<string, unknown> | string = {}, options: SkillCallOptions = {}): Promise<ToolResult> {
    const call = { id: `${this.attempt.callId}.${++this.asked}`, name, arguments: args };
    const { state, frame } = this.binding;
    const refusal = this.refusal();
    if (refusal !== undefined) return this.parts.dispatcher.refuse(state, call, NO_OPTIONS, refusal.code, refusal.message, frame);
    this.calls++;
    return this.parts.dispatcher.dispatch(this.binding.view, state, call, this.optionsFor(options), frame);
  }

  callTools(calls: readonly { name: string; arguments?: Record<string, unknown> | string | undefined }[], options: SkillCallOptions = {}): Promise<ToolResult[]> {
    return this.parts.batches.run(
      calls.map((c) => ({ id: '', name: c.name, arguments: c.arguments ?? {} })),
      (call) => this.callTool(call.name, call.arguments, options),
    );
  }

  invokeSkill(name: string, params?: Record<string, unknown>, options: SkillCallOptions = {}): Promise<ToolResult> {
    return this.callTool('invoke_skill', params === undefined ? { name } : { name, parameters: params }, options);
  }

  /** Runs the skill's code; resolves to what the `invoke_skill` call answers (or rejects with what it threw). */
  execute(params: Record<string, unknown>): unknown {
    const skill = this.record.skill;
    let produced: unknown;
    try {
      produced = skill.run !== undefined ? skill.run(params, this) : runSteps(skill.name, skill.steps!, params, this);
    } catch (error) {
      return this.threw(error);
    }
    if (isThenable(produced)) {
      return Promise.resolve(produced).then(
        (value) => (isObservable(value) || isAsyncIterator(value) ? this.guard(value) : this.finish(value)),
        (error: unknown) => this.threw(error),
      );
    }
    return isObservable(produced) || isAsyncIterator(produced) ? this.guard(produced) : this.finish(produced);
  }

  /** The run's answer: its value, unless it went over its cap. */
  private finish(value: unknown): unknown {
    this.ended = true;
    return this.failure ?? value;
  }

  private threw(error: unknown): unknown {
    this.ended = true;
    if (this.failure !== undefined) return this.failure;
    throw new ToolkitError('SKILL_FAILED', `skill '${this.record.skill.name}': ${describeThrown(error)}`, { cause: error });
  }

  /** Streams (Observables, async generators) settle in the executor; the cap still decides the last value. */
  private guard(value: Observable<unknown> | AsyncGenerator<unknown, unknown>): unknown {
    if (isObservable(value)) {
      return new Observable<unknown>((subscriber) =>
        value.subscribe({
          next: (v) => subscriber.next(v),
          error: (e: unknown) => {
            this.ended = true;
            if (this.failure !== undefined) {
              subscriber.next(this.failure);
              subscriber.complete();
            } else subscriber.error(e);
          },
          complete: () => {
            this.ended = true;
            if (this.failure !== undefined) subscriber.next(this.failure);
            subscriber.complete();
          },
        }),
      );
    }
    return guarded(value, () => this.failure, () => (this.ended = true));
  }

  /** Why the run makes no more calls (it ended, or went over its cap: that call stops it), or `undefined`. */
  private refusal(): { code: ToolkitErrorCode; message: string } | undefined {
    const skill = this.record.skill.name;
    if (this.ended) return { code: 'ABORTED', message: `Skill '${skill}' has finished; its context cannot call tools any more.` };
    if (this.failure === undefined) {
      if (this.calls < this.maxToolCalls) return undefined;
      this.failure = errorResult(
        `Skill '${skill}' was stopped: it tried to make more than ${this.maxToolCalls} tool calls (its limit). ` +
          'Invoke it with a smaller request, or raise maxToolCalls in its definition.',
        'SKILL_LIMIT_EXCEEDED',
      );
      this.controller.abort(new Error(this.failure.forLLM));
    }
    return { code: 'SKILL_LIMIT_EXCEEDED', message: this.failure.forLLM };
  }

  private optionsFor(options: SkillCallOptions): CallOptions {
    const outer = this.binding.options;
    const signal = options.signal !== undefined ? AbortSignal.any([this.signal, options.signal]) : this.signal;
    const callOptions: CallOptions = { signal };
    if (outer.context !== undefined) callOptions.context = outer.context;
    if (outer.agentContext !== undefined) callOptions.agentContext = outer.agentContext;
    // the skill's own calls ask the same client and log to the same caller
    if (outer.client !== undefined) callOptions.client = outer.client;
    if (outer.onLog !== undefined) callOptions.onLog = outer.onLog;
    const sessionId = this.binding.state.sessionId;
    if (sessionId !== undefined) callOptions.sessionId = sessionId;
    return callOptions;
  }
}

/** Passes a generator's yields and return value through, unless `failure()` has an answer by the end. */
async function* guarded(
  source: AsyncGenerator<unknown, unknown>,
  failure: () => ToolResult | undefined,
  end: () => void,
): AsyncGenerator<unknown, unknown> {
  try {
    const last: unknown = yield* source;
    return failure() ?? last;
  } finally {
    end();
  }
}

/** Runs declarative steps in order; stops at the first failed or held step. */
async function runSteps(skill: string, steps: readonly SkillStep[], params: Record<string, unknown>, ctx: SkillContext): Promise<ToolResult> {
  const results: ToolResult[] = [];
  const total = steps.length;
  for (let i = 0; i < total; i++) {
    const step = steps[i];
    ctx.emit({ progress: i, total, message: `step ${i + 1}/${total}: ${step.tool}` });
    const input = { params, results: [...results], ...(i > 0 ? { previous: results[i - 1] } : {}) };
    const args = typeof step.arguments === 'function' ? await step.arguments(input) : (step.arguments ?? {});
    const result = await ctx.callTool(step.tool, args);
    results.push(result);
    const where = `step ${i + 1}/${total} ('${step.tool}')`;
    if (isPendingResult(result)) {
      const approvalId = approvalIdOf(result);
      return errorResult(
        approvalId !== undefined
          ? `Skill '${skill}' stopped at ${where}: the call needs a person's approval (approval id '${approvalId}'). ` +
              'The remaining steps did not run; invoke the skill again once the call is approved.'
          : `Skill '${skill}' stopped at ${where}: the tool answered asynchronously; the remaining steps did not run.`,
        approvalId !== undefined ? 'APPROVAL_PENDING' : 'SKILL_FAILED',
      );
    }
    if (result.isError) {
      return errorResult(`Skill '${skill}' failed at ${where}: ${result.forLLM}`, 'SKILL_FAILED');
    }
  }
  ctx.emit({ progress: total, total, message: 'done' });
  const last = results[total - 1];
  const answer: ToolResult = { forLLM: last.forLLM, silent: last.silent, isError: false, async: false };
  if (last.forUser !== undefined) answer.forUser = last.forUser;
  if (last.data !== undefined) answer.data = last.data;
  if (last.content !== undefined) answer.content = last.content;
  return answer;
}
