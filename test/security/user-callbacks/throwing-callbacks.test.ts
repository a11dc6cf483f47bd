import { join } from 'node:path';
import { throwError } from 'rxjs';
import { GuardedObservable } from '../../../src/utils/guarded-observable';
import { runChildFixture } from '../../support/child-process';

/**
 * Regression: a throwing subscriber on events$ / activeTools$ / the approval streams, or a
 * throwing onProgress / onAsyncComplete, or instrumentToolkit with a throwing redact, crashed the
 * process (uncaughtException). Run in a real child process so that an uncaught exception would
 * really kill it.
 */
describe('security: user callbacks cannot crash the process', () => {
  it('every throwing callback is reported as an event; every call still returns its result; nothing reaches the process', async () => {
    const report = await runChildFixture<{ results: unknown[]; failures: string[]; approvalFailures: string[]; crashes: string[] }>(join(__dirname, 'fixtures', 'throwing-callbacks-child.ts'));
    expect(report.crashes).toEqual([]);
    expect(report.results).toEqual([
      { forLLM: 'done', isError: false },
      { forLLM: 'started', isError: false },
      { forLLM: expect.stringContaining('needs a person'), isError: false },
      { forLLM: 'done', isError: false },
    ]);
    const sources = new Set(report.failures.map((f) => f.split(':')[0]));
    expect([...sources].sort()).toEqual(['events$', 'onAsyncComplete@c2', 'onProgress@c1', "session 's1'", 'toolkit view']);
    expect(report.failures).toContain('events$: Error: piped events$ subscriber exploded');
    expect(report.failures).toContain('onProgress@c1: Error: onProgress exploded');
    expect(report.failures).toContain('events$: Error: otel redact exploded');
    expect(report.approvalFailures).toEqual(expect.arrayContaining(['pending$: Error: pending$ subscriber exploded', 'decisions$: Error: decisions$ subscriber exploded']));
  });
});

describe('security: guarded streams keep RxJS semantics', () => {
  it('the positional subscribe(next, error) form still reaches its error handler', () => {
    const reported: unknown[] = [];
    const seen: unknown[] = [];
    const guarded = GuardedObservable.of(throwError(() => new Error('stream failed')), (e: unknown) => reported.push(e), 'test');
    guarded.subscribe(null, (e: unknown) => seen.push(e));
    expect(seen).toHaveLength(1);
    expect(reported).toEqual([]);
  });
});
