import * as path from 'node:path';
import type * as TS from 'typescript';
import { ts } from './compiler';
import { ToolkitError } from '../errors';

/**
 * The compiler options used when no tsconfig is given: what a toolwright project compiles
 * with, minus the DOM lib and global `@types` packages, which tool signatures rarely need and
 * which would double the cost of building the Program. (`ToolEmitter` and `AbortSignal`
 * parameters are recognised by name, so they need no declarations.) Pass `--project` to use
 * the project's own settings.
 */
export const DEFAULT_COMPILER_OPTIONS: Readonly<TS.CompilerOptions> = Object.freeze({
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
});

/** A tsconfig read from disk. */
export interface LoadedProject {
  /** Compiler options, with the overrides the generator needs applied. */
  readonly options: TS.CompilerOptions;
  /** Every file the tsconfig names (absolute paths). */
  readonly fileNames: readonly string[];
}

/** Formats compiler diagnostics as readable lines. */
export function formatDiagnostics(diagnostics: readonly TS.Diagnostic[], cwd: string): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  }).trimEnd();
}

/**
 * Options the generator always overrides: it never emits, and it needs `strictNullChecks` so
 * `T | null` survives into the schema.
 */
export function generatorCompilerOptions(options: TS.CompilerOptions): TS.CompilerOptions {
  const result: TS.CompilerOptions = { ...options, noEmit: true, strictNullChecks: true };
  for (const key of ['incremental', 'composite', 'tsBuildInfoFile', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'sourceMap', 'outDir', 'outFile'] as const) {
    delete result[key];
  }
  return result;
}

/**
 * Reads a tsconfig (with `extends`) and returns its compiler options and file list.
 *
 * @throws ToolkitError `INVALID_TSCONFIG` when the file is missing or invalid.
 */
export function loadProject(projectPath: string, cwd: string): LoadedProject {
  const absolute = path.resolve(cwd, projectPath);
  const read = ts.readConfigFile(absolute, ts.sys.readFile);
  if (read.error !== undefined) {
    throw new ToolkitError('INVALID_TSCONFIG', `cannot read tsconfig ${projectPath}:\n${formatDiagnostics([read.error], cwd)}`);
  }
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(absolute), undefined, absolute);
  // "No inputs were found" is not fatal when files are named on the command line.
  const errors = parsed.errors.filter((d) => d.code !== 18003);
  if (errors.length > 0) {
    throw new ToolkitError('INVALID_TSCONFIG', `invalid tsconfig ${projectPath}:\n${formatDiagnostics(errors, cwd)}`);
  }
  return { options: parsed.options, fileNames: parsed.fileNames.map((f) => path.resolve(f)) };
}
