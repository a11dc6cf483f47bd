import ts from 'typescript';

/**
 * A user's project as toolwright expects it: ES2022, Node's module resolution, strict, the two
 * decorator flags toolwright needs and `@types/node`; type-checked only, nothing emitted.
 */
export const USER_COMPILER_OPTIONS: Readonly<ts.CompilerOptions> = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
  types: ['node'],
  noEmit: true,
};

/** The syntactic and semantic diagnostics of `files` compiled together with `options`, `text` standing in for a file's contents. */
export function diagnosticsOf(files: readonly string[], options: ts.CompilerOptions, text: ReadonlyMap<string, string> = new Map()): ts.Diagnostic[] {
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => text.get(name) ?? readFile(name);
  const program = ts.createProgram({ rootNames: files, options, host });
  return files.flatMap((name) => {
    const file = program.getSourceFile(name)!;
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
  });
}

/** `diagnostics` as the compiler prints them, paths relative to `cwd` (empty: none). */
export function diagnosticsText(diagnostics: readonly ts.Diagnostic[], cwd = process.cwd()): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  });
}
