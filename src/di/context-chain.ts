import type { ToolkitContainer } from './services';
import type { ContextKey, ToolExecutionContext } from '../model/execution-context';
import { lookupBound } from './services';

/**
 * @internal One step down the context chain of a call: the call's context over the agent's over
 * the toolkit's, then the container. The first that holds `key` answers.
 *
 * @example
 * chainLookup(UserContext, callContext, undefined, toolkitContext, container); // the call's user, else the toolkit's…
 */
export function chainLookup<T>(
  key: ContextKey<T>,
  call: ToolExecutionContext | undefined,
  agent: ToolExecutionContext | undefined,
  toolkit: ToolExecutionContext,
  container: ToolkitContainer,
): T | undefined {
  return call?.get(key) ?? agent?.get(key) ?? toolkit.get(key) ?? lookupBound<T>(container, key);
}
