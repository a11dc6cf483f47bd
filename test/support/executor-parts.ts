import type { Toolkit } from '../../src';
import type { ExecutorParts } from '../../src/executor/executor-parts';

/**
 * The executor services behind a toolkit (its deadline scheduler, its waiting async calls), for
 * white-box assertions: what a test reads of the runtime that no public API shows.
 */
export function executorPartsOf(toolkit: Toolkit): ExecutorParts {
  return toolkit['runtime'];
}
