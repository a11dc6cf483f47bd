import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/**
 * Every ```ts block of README.md type-checks against src/ (`toolwright` and its subpaths are mapped
 * to the entry points of package.json `exports`), with the compiler options `npx tsc --init` writes
 * with TypeScript 5.9 plus the two decorator flags. A block may be a fragment: the HTML comment
 * `<!-- prelude … -->` right before it holds the imports and `declare`s it assumes (rendered
 * nowhere, checked here). Each block is an ES module of its own (top-level await allowed); the
 * quick example, the only block without a prelude that defines a tool, must also compile as
 * CommonJS (no top-level await) and with the fresh project's `types: []`.
 */
const ROOT = path.resolve(__dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SNIPPETS = path.join(ROOT, 'test/readme/__snippets__');

interface Snippet {
  readonly line: number;
  readonly prelude: string;
  readonly code: string;
}

function snippets(markdown: string): Snippet[] {
  const found: Snippet[] = [];
  const fence = /(?:<!-- prelude\n([\s\S]*?)-->\n)?```ts\n([\s\S]*?)```/g;
  for (let match = fence.exec(markdown); match !== null; match = fence.exec(markdown)) {
    const line = markdown.slice(0, match.index + (match[0].indexOf('```ts'))).split('\n').length;
    found.push({ line, prelude: match[1] ?? '', code: match[2] ?? '' });
  }
  return found;
}

/** `toolwright`, `toolwright/openai`… → the TypeScript source of each entry point. */
function entryPointPaths(): Record<string, string[]> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { types?: string }> };
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object' || target.types === undefined) continue;
    paths[pkg.name + key.slice(1)] = [path.join(ROOT, target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'))];
  }
  return paths;
}

/** The options of `tsc --init` (TypeScript 5.9) plus experimentalDecorators and emitDecoratorMetadata. */
const FRESH: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ESNext,
  types: [],
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  strict: true,
  jsx: ts.JsxEmit.ReactJSX,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  moduleDetection: ts.ModuleDetectionKind.Force,
  skipLibCheck: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  noEmit: true,
  paths: entryPointPaths(),
};

/** Type-checks in-memory files (placed under test/readme so node_modules resolves) and returns their diagnostics as text. */
function check(files: ReadonlyMap<string, string>, options: ts.CompilerOptions): string[] {
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, language, true) : getSourceFile(name, language, ...rest);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  return [...files.keys()].flatMap((name) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(name)).map((d) => {
      const where = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const file = d.file === undefined ? '' : path.relative(ROOT, d.file.fileName);
      return `${file}${where ? `:${where.line + 1}` : ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }),
  );
}

const all = snippets(README);
const quick = all.find((s) => s.prelude === '' && s.code.includes('@Tool('));

describe('README snippets', () => {
  it('finds the blocks (a changed fence or marker would silently check nothing)', () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(quick).toBeDefined();
    expect(README).not.toMatch(/```typescript\n/);
  });

  it('every ```ts block type-checks against src/ as an ES module, with its prelude', () => {
    const files = new Map(all.map((s) => [path.join(SNIPPETS, `readme-line-${s.line}.mts`), `${s.prelude}${s.code}`]));
    expect(check(files, { ...FRESH, types: ['node'] })).toEqual([]);
  });

  it('the quick example is complete: it compiles under the fresh defaults (types: []) as ESM, and as CommonJS', () => {
    const code = quick?.code ?? '';
    expect(check(new Map([[path.join(SNIPPETS, 'quick.mts'), code]]), FRESH)).toEqual([]);
    const commonjs = { ...FRESH, verbatimModuleSyntax: false, moduleDetection: ts.ModuleDetectionKind.Auto };
    expect(check(new Map([[path.join(SNIPPETS, 'quick.cts'), code]]), commonjs)).toEqual([]);
  });
});
