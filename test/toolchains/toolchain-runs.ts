import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import * as ts from 'typescript';
import { ROOT } from '../support/child-process';
import type { ShopReport } from './fixtures/shop/main';

/**
 * Child processes for the toolchain tests: each runs a fixture compiled the way one toolchain
 * compiles it, with the repository's packages resolving, and returns what the fixture printed.
 */

/** The TypeScript compiler and the children take 1-8 s on an idle machine, several times that on two loaded cores. */
export const CHILD_MS = 150_000;

/** Runs `command args…` in `cwd` and returns its stdout; externals resolve from the repository's node_modules. */
export function runChild(command: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const childEnv = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules'), ...env };
    execFile(command, args, { cwd, env: childEnv, timeout: CHILD_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(command)} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Runs `node args…` and parses the JSON report it prints last. */
export async function runNode<Report>(args: readonly string[], cwd: string): Promise<Report> {
  return JSON.parse((await runChild(process.execPath, args, cwd)).trim()) as Report;
}

/** What tsc does to the fixtures: decorator metadata on (transpileModule, as ts-jest and ts-node do per file). */
const tscPlugin: esbuild.Plugin = {
  name: 'tsc-with-metadata',
  setup(build) {
    build.onLoad({ filter: /[\\/]test[\\/]toolchains[\\/]fixtures[\\/].*\.ts$/ }, (args) => {
      const output = ts.transpileModule(fs.readFileSync(args.path, 'utf8'), {
        fileName: args.path,
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, experimentalDecorators: true, emitDecoratorMetadata: true },
      });
      return { contents: output.outputText, loader: 'js' };
    });
  },
};

/** Bundles an entry the way an esbuild user does (no decorator metadata), or with tsc for the fixtures, and runs it. */
export async function bundleAndRun<Report>(entry: string, compiler: 'esbuild' | 'tsc'): Promise<Report> {
  const outfile = entry.replace(/\.ts$/, `.${compiler}.js`);
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    logLevel: 'silent',
    keepNames: true, // the manifest finds classes by name: a bundle must not rename them
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
    plugins: compiler === 'tsc' ? [tscPlugin] : [],
  });
  return runNode<Report>([outfile], path.dirname(entry));
}

/** Runs an entry with tsx (esbuild per file, no metadata), with the project's tsconfig as a user's would be. */
export function runTsx<Report>(entry: string): Promise<Report> {
  return runNode<Report>([path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig', path.join(ROOT, 'tsconfig.json'), entry], path.dirname(entry));
}

/** The shop's report where DTOs were validated by class-validator and passed as instances, and the context injected. */
export function expectValidated(report: ShopReport): void {
  expect(report.registration).toBe('ok');
  expect(report.calls.valid?.isError).toBe(false);
  expect(JSON.parse(report.calls.valid!.text)).toMatchObject({
    order: '2 x A-1',
    orderIsInstance: true,
    extraIsInstance: true,
    linesAreInstances: true,
    user: 'u-7',
  });
  expect(report.calls.fractional?.text).toContain("'order.qty': must be integer");
  expect(report.calls.pattern?.text).toContain("'order.sku': must match pattern");
  expect(report.calls.nested?.text).toContain("'order.extra.qty'");
  // the rule only class-validator holds: proof that it ran, on nested DTOs and on array items
  expect(report.calls.classValidatorOnly?.text).toContain("'order.extra.sku': sku must match /^[a-z]$/i regular expression");
  expect(report.calls.classValidatorOnly?.text).toContain("'lines[0].sku': sku must match /^[a-z]$/i regular expression");
}
