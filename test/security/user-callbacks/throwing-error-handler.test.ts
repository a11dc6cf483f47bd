import { join } from 'node:path';
import { runChildFixture } from '../../support/child-process';

/**
 * Attack: the application's `onCallbackError` (the ApprovalManager's handler for throwing
 * subscribers) throws too — a logger that is down. The throw escaped into RxJS, which rethrows it
 * asynchronously: an uncaughtException that kills the process. Run in a real child process.
 */
describe('attack: a throwing onCallbackError cannot crash the process', () => {
  it('the calls complete, one warning says what happened, nothing reaches the process', async () => {
    const report = await runChildFixture<{ results: unknown[]; warnings: string[]; crashes: string[] }>(join(__dirname, 'fixtures', 'throwing-error-handler-child.ts'));
    expect(report.crashes).toEqual([]);
    expect(report.results).toEqual([true, 'paid']);
    expect(report.warnings).toEqual([
      "TOOLWRIGHT_CALLBACK_FAILED: ApprovalManager's onCallbackError threw (error logger is down) while reporting a failure of pending$.",
    ]);
  });
});
