import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ToolkitError, type ToolkitErrorCode } from '../../src';

/** Awaits `promise` and returns the ToolkitError of `code` it rejects with (anything else fails the test). */
export async function rejectsWith(promise: Promise<unknown>, code: ToolkitErrorCode): Promise<ToolkitError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolkitError.is(error, code)) throw new Error(`expected ToolkitError ${code}, got ${String(error)}`);
  return error;
}

/** Runs a TypeScript fixture in a real child process (so an uncaught exception would kill it) and parses the JSON line it prints. */
export async function runChildFixture<T>(fixture: string): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', './scripts/swc-register.js', `test/security/fixtures/${fixture}`], {
    cwd: path.resolve(__dirname, '../..'),
    timeout: 30_000,
  });
  return JSON.parse(stdout.trim()) as T;
}
