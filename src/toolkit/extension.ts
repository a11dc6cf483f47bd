import type { ToolExecutionContext } from '../model/execution-context';
import type { ExecutorParts } from '../executor/executor-parts';
import type { RemoteRunner } from '../executor/remote/remote-types';
import type { ToolEntry } from '../executor/tool-entry';
import type { Registry } from './registry';

/**
 * @internal The routes of calls that run elsewhere (`queueTools`): which runner, if any, runs a
 * tool's calls, and whether a route admits a tool being registered. The executor asks only the
 * first, through the toolkit's `runnerFor`.
 */
export interface RemoteRouter {
  /** How the calls of `entry` run elsewhere; `undefined`: they run here. */
  runnerFor(entry: ToolEntry): RemoteRunner | undefined;
  /** Called for each tool being registered: throws when a route that takes it cannot run it (the registration then fails). */
  admit(entry: ToolEntry): void;
}

/**
 * @internal The one seam through which the subpath packages (`toolwright/bullmq`, the Nest module)
 * reach a toolkit past its public API, given by `extensionOf(toolkit)`. Narrow on purpose: the
 * registered tools and groups to select from, the routes of tools whose calls run elsewhere, the
 * executor a queued call runs on (through `runCall`, like every call), and the source of the
 * context of the work in progress.
 */
export interface ToolkitExtension extends ExecutorParts {
  /** The registered tools, looked up and listed (never changed through here). */
  readonly registry: Pick<Registry, 'has' | 'get' | 'resolve' | 'entries'>;
  /** The toolkit's groups, by name. */
  readonly groups: ReadonlyMap<string, unknown>;
  /** The routes of tools whose calls run elsewhere (`queueTools`); `undefined` while there are none. */
  remote: RemoteRouter | undefined;
  /** Where the context of the work in progress comes from (the Nest module: the request's caller). */
  ambient: (() => ToolExecutionContext | undefined) | undefined;
}
