import 'reflect-metadata';
import type { Subscription } from 'rxjs';
import type { AgentTool, JsonSchema, ToolBehaviour, ToolCallContext, ToolEvent, ToolkitOptions } from '../../src';
import { Toolkit } from '../../src';
import type { ExecutorCore } from '../../src/executor/call-executor';

/** The executor core of a toolkit (scheduler, async waiters) for white-box assertions. */
export function internals(toolkit: Toolkit): ExecutorCore {
  return (toolkit as unknown as { host: { core: ExecutorCore } }).host.core;
}

/** Records every event of `toolkit.events$` until `stop()`. */
export function recordEvents(toolkit: Toolkit): { events: ToolEvent[]; of<T extends ToolEvent['type']>(type: T): Extract<ToolEvent, { type: T }>[]; stop(): void } {
  const events: ToolEvent[] = [];
  const subscription: Subscription = toolkit.events$.subscribe((e) => events.push(e));
  return {
    events,
    of: <T extends ToolEvent['type']>(type: T) => events.filter((e): e is Extract<ToolEvent, { type: T }> => e.type === type),
    stop: () => subscription.unsubscribe(),
  };
}

/** The call events of one call id, as `type` strings. */
export function typesOf(events: readonly ToolEvent[], callId?: string): string[] {
  return events.filter((e) => 'callId' in e && (callId === undefined || e.callId === callId)).map((e) => e.type);
}

/** A promise with its resolve/reject. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A promise settled from outside. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A plain AgentTool with a free-form object schema. */
export function agentTool(
  name: string,
  execute: (args: Record<string, unknown>, ctx: ToolCallContext) => unknown,
  behaviour?: ToolBehaviour,
  properties: Record<string, JsonSchema> = {},
): AgentTool {
  return {
    name,
    description: `Test tool ${name}`,
    parameters: { type: 'object', properties },
    ...(behaviour ? { behaviour } : {}),
    execute,
  };
}

/** A toolkit with the given tools registered. */
export function toolkitWith(tools: AgentTool[], options: ToolkitOptions = {}): Toolkit {
  const toolkit = new Toolkit(options);
  for (const tool of tools) toolkit.registerTool(tool);
  return toolkit;
}

/** Lets every queued promise callback run (no timers involved). */
export async function flushPromises(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/** Jest fake timers that leave the microtask machinery real. */
export function useFakeTime(): void {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
}

/** Active Node resources of `type` (e.g. 'Timeout'). */
export function activeResources(type: string): number {
  return process.getActiveResourcesInfo().filter((r) => r === type).length;
}

/**
 * A full garbage collection, without starting Node with --expose-gc: the flag is switched on at
 * run time and `gc` is taken from a fresh V8 context.
 */
export function collectGarbage(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v8 = require('node:v8') as typeof import('node:v8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vm = require('node:vm') as typeof import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
}
