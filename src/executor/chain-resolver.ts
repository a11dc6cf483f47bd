import type { ContextResolver } from '../model/agent-tool';
import { ToolExecutionContext, type ContextKey } from '../model/execution-context';
import { AsyncCompletion } from './async/async-completion';
import type { CallLink } from './call/call-link';
import type { CallOptions, ExecutorParts } from './executor-parts';
import { chainLookup } from '../di/context-chain';

/**
 * @internal The context chain of one call (call over agent over toolkit, then the container), and
 * what is injected by type besides: the merged `ToolExecutionContext`, the call's `AsyncCompletion`.
 */
export class ChainResolver implements ContextResolver {
  private mergedChain: ToolExecutionContext | undefined = undefined;

  constructor(
    private readonly run: CallLink,
    private readonly options: CallOptions,
    private readonly parts: ExecutorParts,
  ) {}

  /** The whole chain as one context (call over agent over toolkit), merged once per call. */
  merged(): ToolExecutionContext {
    return (this.mergedChain ??= ToolExecutionContext.merge(this.parts.context, this.options.agentContext, this.options.context));
  }

  get<T>(key: ContextKey<T>): T | undefined {
    if ((key as unknown) === AsyncCompletion) return this.run.asyncCompletion() as T;
    // For tools that want every context object.
    if ((key as unknown) === ToolExecutionContext) return this.merged() as T;
    return chainLookup(key, this.options.context, this.options.agentContext, this.parts.context, this.parts.container);
  }
}
