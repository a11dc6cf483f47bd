import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Attack: the application's `onCallbackError` (the ApprovalManager's handler for throwing
 * subscribers) throws too — a logger that is down. The throw escaped into RxJS, which rethrows it
 * asynchronously: an uncaughtException that kills the process. Run in a real child process.
 */
const root = path.resolve(__dirname, '../..');

describe('attack: a throwing onCallbackError cannot crash the process', () => {
  it('the calls complete, one warning says what happened, nothing reaches the process', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', './scripts/swc-register.js', 'test/security/fixtures/throwing-error-handler-child.ts'], {
      cwd: root,
      timeout: 30_000,
    });
    const report = JSON.parse(stdout.trim()) as { results: unknown[]; warnings: string[]; crashes: string[] };
    expect(report.crashes).toEqual([]);
    expect(report.results).toEqual([true, 'paid']);
    expect(report.warnings).toEqual([
      "TOOLWRIGHT_CALLBACK_FAILED: ApprovalManager's onCallbackError threw (error logger is down) while reporting a failure of pending$.",
    ]);
  });
});
