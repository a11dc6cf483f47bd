import { execFile } from 'node:child_process';
import path from 'node:path';

/** The repository root: the working directory of every child process the tests start. */
export const ROOT = path.resolve(__dirname, '../..');

/** What a child process printed, how it ended and when. */
export interface ChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly exitedAt: number;
}

/**
 * Runs a TypeScript file (absolute, or relative to {@link ROOT}) in a real `node` child process,
 * compiled on the fly by `scripts/swc-register.js` as `npm start` does. Rejects when the child has
 * not exited by itself within `timeoutMs`.
 */
export function runTypeScript(file: string, options: { nodeArgs?: readonly string[]; timeoutMs?: number } = {}): Promise<ChildRun> {
  const { nodeArgs = [], timeoutMs = 30_000 } = options;
  return new Promise((resolve, reject) => {
    const args = [...nodeArgs, '-r', './scripts/swc-register.js', file];
    const child = execFile(process.execPath, args, { cwd: ROOT, timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error?.killed) reject(new Error(`${file} did not exit by itself within ${timeoutMs} ms:\n${stderr}`));
      else resolve({ code: child.exitCode, stdout, stderr, exitedAt: Date.now() });
    });
  });
}

/** Runs a TypeScript fixture in a child process (so an uncaught exception would kill it) and parses the JSON line it prints. */
export async function runChildFixture<T>(file: string): Promise<T> {
  const run = await runTypeScript(file);
  if (run.code !== 0) throw new Error(`${file} exited with code ${String(run.code)}:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim()) as T;
}
