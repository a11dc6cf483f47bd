import 'reflect-metadata';
import type { AgentTool, ToolEvent, ToolkitOptions } from '../../src';
import { Toolkit } from '../../src';
import type { ExecutorParts } from '../../src/executor/executor-parts';
import { executorPartsOf } from '../support/executor-parts';

/** The executor parts of a toolkit (scheduler, async waiters) for white-box assertions. */
export function internals(toolkit: Toolkit): ExecutorParts {
  return executorPartsOf(toolkit);
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

/**
 * Tracks the real timers created through the global `setTimeout` from now on (Jest keeps its own
 * references, so its timers are not counted): `outstanding()` is how many neither fired nor were
 * cleared.
 */
export function trackTimers(): { outstanding(): number; created(): number; restore(): void } {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Set<unknown>();
  let created = 0;
  const tracked = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    created++;
    const handle = realSet(() => {
      live.delete(handle);
      callback(...args);
    }, ms);
    live.add(handle);
    return handle;
  };
  globalThis.setTimeout = tracked as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
    live.delete(handle);
    realClear(handle);
  }) as typeof clearTimeout;
  return {
    outstanding: () => live.size,
    created: () => created,
    restore: () => {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    },
  };
}
