import path from 'node:path';
import { runTypeScript } from '../support/child-process';

describe('timeouts on real time', () => {
  it('outside Jest: 3,000 timed-out calls leave no active resource, the heap returns to baseline, the process exits by itself', async () => {
    // bounds for two loaded cores (an idle machine takes ~2 s): a handle left open keeps the child
    // alive forever, and timeouts that fired one after another would take 50 s a round
    const child = await runTypeScript(path.join(__dirname, 'fixtures/soak-child.ts'), { nodeArgs: ['--expose-gc'], timeoutMs: 60_000 });
    expect(child.stderr).toBe('');
    expect(child.code).toBe(0);
    const report = JSON.parse(child.stdout) as {
      calls: number;
      timeouts: number;
      elapsedMs: number[];
      heapBefore: number;
      heapAfter: number;
      resourcesBefore: string[];
      resourcesAfter: string[];
      callerListeners: number;
      deadlines: { pending: number; retained: number; armed: boolean };
      finishedAt: number;
    };
    expect(report.timeouts).toBe(report.calls);
    expect(report.elapsedMs.every((ms) => ms < 5_000)).toBe(true);
    expect(report.resourcesAfter).toEqual(report.resourcesBefore);
    expect(report.callerListeners).toBe(0);
    expect(report.deadlines).toEqual({ pending: 0, retained: 0, armed: false });
    // A retained call costs ~3 KB: 3,000 leaked calls would add ~9 MB.
    expect(report.heapAfter - report.heapBefore).toBeLessThan(2 * 1024 * 1024);
    // Nothing kept the event loop alive after the last call (resourcesAfter names any timer left).
    expect(child.exitedAt - report.finishedAt).toBeLessThan(10_000);
  });
});
