import { ToolExecutionContext, type ContextKey } from '../model/execution-context';
import { AsyncCompletion } from '../executor/async/async-completion';
import type { ToolResult } from '../model/tool-types';
import type { AvailabilityGate, CallOptions } from '../executor/executor-parts';
import { runCall } from '../executor/call/start-call';
import { isUnboundPreset } from '../executor/presets/presets';
import type { RemoteRunner, WorkerAttempt } from '../executor/remote/remote-types';
import type { ToolEntry } from '../executor/tool-entry';
import { ToolkitError } from '../errors';
import { MethodTool } from './method-tool';
import type { RemoteRouter } from './extension';
import { extensionOf, type Toolkit } from './toolkit';

export type { RemoteCall, RemoteRunner, WorkerAttempt } from '../executor/remote/remote-types';
export type { ToolEntry } from '../executor/tool-entry';
export { extensionOf } from './toolkit';

/** @internal Which tools a route (or a worker) takes: by name, or every tool of a group. */
export interface ToolSelection {
  readonly tools?: readonly string[] | undefined;
  readonly groups?: readonly string[] | undefined;
}

/** @internal A predicate over entries for a selection; no selection at all takes every tool. */
export function selects(selection: ToolSelection): (entry: ToolEntry) => boolean {
  const tools = new Set(selection.tools ?? []);
  const groups = new Set(selection.groups ?? []);
  if (selection.tools === undefined && selection.groups === undefined) return (entry) => entry.source === 'component';
  return (entry) => entry.source === 'component' && (tools.has(entry.name) || (entry.group !== undefined && groups.has(entry.group)));
}

/**
 * @internal Throws `INVALID_OPTIONS` (`what` names the caller, e.g. `queueTools('reports')`) when
 * `selection` names a tool or group `toolkit` lacks: a typo would otherwise route nothing.
 */
export function assertSelection(toolkit: Toolkit, selection: ToolSelection, what: string): void {
  const extension = extensionOf(toolkit);
  const missing = [
    ...(selection.tools ?? []).filter((name) => !extension.registry.has(name)).map((name) => `tool '${name}'`),
    ...(selection.groups ?? []).filter((group) => !extension.groups.has(group)).map((group) => `group '${group}'`),
  ];
  if (missing.length > 0) throw new ToolkitError('INVALID_OPTIONS', `${what}: the toolkit has no ${missing.join(', ')}.`);
}

interface Route {
  readonly takes: (entry: ToolEntry) => boolean;
  readonly runner: RemoteRunner;
  readonly admit: (entry: ToolEntry) => void;
}

/** The routes of one toolkit, first match wins: the toolkit's {@link RemoteRouter}. */
class RouteTable implements RemoteRouter {
  readonly routes: Route[] = [];

  runnerFor(entry: ToolEntry): RemoteRunner | undefined {
    return this.routeFor(entry)?.runner;
  }

  admit(entry: ToolEntry): void {
    this.routeFor(entry)?.admit(entry);
  }

  private routeFor(entry: ToolEntry): Route | undefined {
    return this.routes.find((route) => route.takes(entry));
  }
}

/**
 * @internal Routes the calls of the tools `takes` accepts (now and registered later) to `runner`,
 * for the toolkit's life. Everything else of a call (gate, validation, hooks, events, the caller's
 * timeout and abort) stays with the toolkit. `admit` checks each tool registered later (whose
 * registration then fails when it throws); the caller checks those registered now.
 */
export function addRoute(toolkit: Toolkit, takes: (entry: ToolEntry) => boolean, runner: RemoteRunner, admit: (entry: ToolEntry) => void): void {
  const extension = extensionOf(toolkit);
  const table = extension.remote instanceof RouteTable ? extension.remote : new RouteTable();
  table.routes.push({ takes, runner, admit });
  extension.remote = table;
}

/** @internal The registered tools of `toolkit`, in registration order. */
export function entriesOf(toolkit: Toolkit): ToolEntry[] {
  return [...extensionOf(toolkit).registry.entries()];
}

/** What the call itself provides wherever it runs: not context that travels. */
const PER_CALL: ReadonlySet<unknown> = new Set<unknown>([AsyncCompletion, ToolExecutionContext]);

/**
 * @internal The context keys a decorated tool injects (not those every call provides, such as its
 * `AsyncCompletion`); `undefined` for an `AgentTool` object, which may read any key from its context.
 */
export function contextKeysOf(entry: ToolEntry): ContextKey[] | undefined {
  const target = entry.target;
  if (!(target instanceof MethodTool)) return undefined;
  return target.descriptor.params.flatMap((param) => (param.kind === 'context' && param.type !== undefined && !PER_CALL.has(param.type) ? [param.type] : []));
}

/** @internal The preset parameters of `entry` that no registration bound in this process. */
export function unboundPresetsOf(entry: ToolEntry): string[] {
  return (entry.presets ?? []).filter((preset) => isUnboundPreset(preset.value)).map((preset) => preset.name);
}

/** @internal One queued call as a worker runs it. */
export interface WorkerCall {
  readonly tool: string;
  readonly callId: string;
  readonly args: Record<string, unknown>;
  readonly handoff: WorkerAttempt;
}

/** @internal Runs one attempt of a queued call on a worker's toolkit (made by {@link workerRunner}). */
export type WorkerRunner = (call: WorkerCall, options: CallOptions) => Promise<ToolResult>;

/**
 * @internal How a worker runs the attempts of queued calls on its toolkit (made once per worker): the
 * worker's gate (the tools it `serves`, always open), validation again (the worker may run another
 * version), the worker's presets and context, no hooks (they ran on the caller), the attempt's
 * timeout capped by the caller's deadline. Each run resolves with the result;
 * `handoff.retryDelayMs` is set when the queue should run another attempt.
 */
export function workerRunner(toolkit: Toolkit, serves: (entry: ToolEntry) => boolean, queueName: string): WorkerRunner {
  const extension = extensionOf(toolkit);
  const gate = workerGate(serves, queueName);
  const registry = extension.registry;
  const unknown = () => ({ entry: undefined, enabledNames: [...registry.entries()].filter(serves).map((entry) => entry.name) });
  return (call, options) => runCall(extension, gate, { id: call.callId, name: call.tool, arguments: call.args }, options, registry.resolve(call.tool) ?? unknown(), undefined, call.handoff);
}

/** The availability gate of a worker: the tools it `serves`, always open. */
function workerGate(serves: (entry: ToolEntry) => boolean, queueName: string): AvailabilityGate {
  return (entry) => (serves(entry) ? undefined : { code: 'TOOL_DISABLED', message: `Tool '${entry.name}' is not run by the workers of queue '${queueName}'.` });
}
