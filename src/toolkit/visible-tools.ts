import type { AgentTool } from '../model/agent-tool';
import { ToolExecutionContext } from '../model/execution-context';
import type { Principal } from '../model/principal';
import { defer, distinctUntilChanged, from, of, switchMap, type Observable } from 'rxjs';
import { listContext, listsTool, listsToolAsync, listVerdict, principalIn, type Authorize } from '../executor/authorization';
import type { Registry } from './registry';

/** @internal What listing for a caller needs of the toolkit. */
export interface ListingParts {
  readonly authorize?: Authorize | undefined;
  readonly context: ToolExecutionContext;
  /** The context of the work in progress (the Nest module's request), between the toolkit's and the caller's own. */
  readonly ambient?: (() => ToolExecutionContext | undefined) | undefined;
}

/** Whether a (frozen, shared) list of tools has a scoped tool, worked out once per list. */
const scopedLists = new WeakMap<readonly AgentTool[], boolean>();

/** @internal True when a list may depend on its caller: a rule is set, or a listed tool has scopes. */
export function callerDependent(parts: ListingParts, tools: readonly AgentTool[]): boolean {
  if (parts.authorize !== undefined) return true;
  let scoped = scopedLists.get(tools);
  if (scoped === undefined) {
    scoped = tools.some((tool) => tool.behaviour?.scopes !== undefined && tool.behaviour.scopes.length > 0);
    if (Object.isFrozen(tools)) scopedLists.set(tools, scoped);
  }
  return scoped;
}

/**
 * @internal Which of `tools` the caller of `own` (its context over the toolkit's) may see, as a
 * mask; `undefined` when every tool is visible (the shared, cached lists can be used as they are).
 */
export function visibleMask(parts: ListingParts, tools: readonly AgentTool[], own: ToolExecutionContext | undefined): readonly boolean[] | undefined {
  if (!callerDependent(parts, tools)) return undefined;
  const { context, principal } = callerOf(parts, own);
  const mask = tools.map((tool) => listsTool(parts.authorize, tool, principal, context));
  return mask.every(Boolean) ? undefined : mask;
}

/** @internal {@link visibleMask} with the `authorize` rule's Promises awaited. */
export async function visibleMaskAsync(parts: ListingParts, tools: readonly AgentTool[], own: ToolExecutionContext | undefined): Promise<readonly boolean[] | undefined> {
  if (!callerDependent(parts, tools)) return undefined;
  const { context, principal } = callerOf(parts, own);
  const mask = await Promise.all(tools.map((tool) => listsToolAsync(parts.authorize, tool, principal, context)));
  return mask.every(Boolean) ? undefined : mask;
}

/** The caller of a list: the toolkit's context, the ambient one (the Nest module's request) over it, the caller's own over both. */
function callerOf(parts: ListingParts, own: ToolExecutionContext | undefined): { context: ToolExecutionContext; principal: Principal | undefined } {
  const context = listContext(parts.context, ToolExecutionContext.merge(parts.ambient?.(), own));
  return { context, principal: principalIn(context) };
}

/**
 * @internal `tools$` (a view's enabled tools) as the caller of `own` sees them: each list masked
 * as {@link visibleMaskAsync} does (the caller fixed at subscription, the ambient one included),
 * synchronously while the rule answers synchronously; a newer list drops an older one still
 * awaiting the rule; a list equal to the one before (a change this caller cannot see) is not sent.
 */
export function visibleTools$(parts: ListingParts, tools$: Observable<readonly AgentTool[]>, own: ToolExecutionContext | undefined): Observable<readonly AgentTool[]> {
  return defer(() => {
    const { context, principal } = callerOf(parts, own);
    return tools$.pipe(
      switchMap((tools) => {
        if (!callerDependent(parts, tools)) return of(tools);
        const verdicts = tools.map((tool) => listVerdict(parts.authorize, tool, principal, context));
        if (!verdicts.some((verdict) => verdict instanceof Promise)) return of(masked(tools, verdicts as boolean[]));
        return from(Promise.all(verdicts).then((mask) => masked(tools, mask)));
      }),
      distinctUntilChanged((a, b) => a.length === b.length && a.every((tool, i) => tool === b[i])),
    );
  });
}

/** @internal `items` kept where `mask` is true, frozen (`items` itself without a mask). */
export function masked<T>(items: readonly T[], mask: readonly boolean[] | undefined): readonly T[] {
  return mask === undefined ? items : Object.freeze(items.filter((_, i) => mask[i]));
}

/**
 * @internal The names among `names` (a skill's scope) that the caller of `own` may see: a
 * registered tool it may not use is left out, so that a skill listing names no tool hidden from it.
 */
export function visibleNames(parts: ListingParts & { readonly registry: Registry }, names: Iterable<string>, own: ToolExecutionContext | undefined): string[] {
  const all = [...names];
  const tools = all.map((name) => parts.registry.resolve(name)?.entry.tool);
  const known = tools.filter((tool): tool is AgentTool => tool !== undefined);
  const mask = visibleMask(parts, known, own);
  if (mask === undefined) return all;
  const hidden = new Set(known.filter((_, i) => !mask[i]));
  return all.filter((_, i) => tools[i] === undefined || !hidden.has(tools[i]!));
}
