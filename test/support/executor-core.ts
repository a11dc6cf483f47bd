import type { Toolkit } from '../../src';
import type { ExecutorCore } from '../../src/executor/executor-core';

/**
 * The executor services behind a toolkit (its deadline scheduler, its waiting async calls), for
 * white-box assertions: what a test reads of the runtime that no public API shows.
 */
export function executorCoreOf(toolkit: Toolkit): ExecutorCore {
  return toolkit['core'];
}
