import path from 'node:path';
import { runTypeScript } from '../support/child-process';

describe('timeouts on real time', () => {
  it('outside Jest: 3,000 timed-out calls leave no active resource, the heap returns to baseline, the process exits by itself', async () => {
    const child = await runTypeScript(path.join(__dirname, 'fixtures/soak-child.ts'), { nodeArgs: ['--expose-gc'], timeoutMs: 15_000 });
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
    expect(report.elapsedMs.every((ms) => ms < 1000)).toBe(true);
    expect(report.resourcesAfter).toEqual(report.resourcesBefore);
    expect(report.callerListeners).toBe(0);
    expect(report.deadlines).toEqual({ pending: 0, retained: 0, armed: false });
    // A retained call costs ~3 KB: 3,000 leaked calls would add ~9 MB.
    expect(report.heapAfter - report.heapBefore).toBeLessThan(2 * 1024 * 1024);
    // Nothing kept the event loop alive after the last call (a leftover 50 ms timer or a listener would).
    expect(child.exitedAt - report.finishedAt).toBeLessThan(5000);
  });
});
