import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/**
 * Every ```ts block of README.md and of the documentation pages (every .md file under docs/, except
 * the generated docs/api/ and docs/reference/errors.md) type-checks against src/ (`toolwright` and its subpaths
 * are mapped to the entry points of package.json `exports`), with the compiler options `npx tsc
 * --init` writes with TypeScript 5.9 plus the two decorator flags. A block may be a fragment: the
 * HTML comment `<!-- prelude … -->` right before it holds the imports and `declare`s it assumes
 * (rendered nowhere, checked here). Each block is an ES module of its own (top-level await
 * allowed); a failure names the page and the line of the block. The README's quick example, its
 * only block without a prelude that defines a tool, must also compile as CommonJS (no top-level
 * await) and with the fresh project's `types: []`.
 */
const ROOT = path.resolve(__dirname, '../..');
const SNIPPETS = path.join(ROOT, 'test/readme/__snippets__');
/** Pages generated from the code, not written: checked where they are generated. */
const GENERATED = [path.join('docs', 'api'), path.join('docs', 'reference', 'errors.md')];

/** README.md, then every written page under docs/, as paths relative to the repository. */
function pages(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const relative = path.join(dir, entry.name);
      if (entry.name.startsWith('.') || GENERATED.includes(relative)) continue;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return ['README.md', ...found];
}

interface Snippet {
  /** The page, relative to the repository. */
  readonly page: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly prelude: string;
  readonly code: string;
}

function snippets(page: string, markdown: string): Snippet[] {
  const found: Snippet[] = [];
  const fence = /(?:<!-- prelude\n([\s\S]*?)-->\n)?```ts\n([\s\S]*?)```/g;
  for (let match = fence.exec(markdown); match !== null; match = fence.exec(markdown)) {
    const line = markdown.slice(0, match.index + (match[0].indexOf('```ts'))).split('\n').length;
    found.push({ page, line, prelude: match[1] ?? '', code: match[2] ?? '' });
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

/**
 * Type-checks in-memory files (placed under test/readme so node_modules resolves) and returns their
 * diagnostics as text; `where` names a diagnostic's place in a file that stands for a snippet.
 */
function check(files: ReadonlyMap<string, string>, options: ts.CompilerOptions, where: (file: string, line: number) => string | undefined = () => undefined): string[] {
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
      const at = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const file = d.file === undefined ? '' : path.relative(ROOT, d.file.fileName);
      const place = (d.file !== undefined && at !== undefined ? where(d.file.fileName, at.line + 1) : undefined) ?? `${file}${at ? `:${at.line + 1}` : ''}`;
      return `${place}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }),
  );
}

const PAGES = pages();
const all = PAGES.flatMap((page) => snippets(page, fs.readFileSync(path.join(ROOT, page), 'utf8')));
const quick = all.find((s) => s.page === 'README.md' && s.prelude === '' && s.code.includes('@Tool('));

/** The in-memory file of a snippet: its page and line in the name, so that names never collide. */
const fileOf = (s: Snippet): string => path.join(SNIPPETS, `${s.page.replace(/[\\/]/g, '__')}-line-${s.line}.mts`);

/** `docs/guide/toolkit.md:42` for a line of a snippet's file (the prelude's lines: `…:42 (prelude)`). */
function placeIn(snippet: Snippet, line: number): string {
  const preludeLines = snippet.prelude.split('\n').length - 1;
  return line > preludeLines ? `${snippet.page}:${snippet.line + line - preludeLines}` : `${snippet.page}:${snippet.line} (prelude line ${line})`;
}

describe('README and docs snippets', () => {
  it('finds the blocks (a changed fence or marker would silently check nothing)', () => {
    expect(PAGES).toContain(path.join('docs', 'guide', 'getting-started.md'));
    expect(all.length).toBeGreaterThanOrEqual(50);
    expect(quick).toBeDefined();
    for (const page of PAGES) expect({ page, typescriptFence: /```typescript\n/.test(fs.readFileSync(path.join(ROOT, page), 'utf8')) }).toEqual({ page, typescriptFence: false });
  });

  it('every ```ts block type-checks against src/ as an ES module, with its prelude', () => {
    const bySnippetFile = new Map(all.map((s) => [fileOf(s), s]));
    const files = new Map(all.map((s) => [fileOf(s), `${s.prelude}${s.code}`]));
    const where = (file: string, line: number) => {
      const snippet = bySnippetFile.get(file);
      return snippet && placeIn(snippet, line);
    };
    expect(check(files, { ...FRESH, types: ['node'] }, where)).toEqual([]);
  });

  it('the quick example is complete: it compiles under the fresh defaults (types: []) as ESM, and as CommonJS', () => {
    const code = quick?.code ?? '';
    expect(check(new Map([[path.join(SNIPPETS, 'quick.mts'), code]]), FRESH)).toEqual([]);
    const commonjs = { ...FRESH, verbatimModuleSyntax: false, moduleDetection: ts.ModuleDetectionKind.Auto };
    expect(check(new Map([[path.join(SNIPPETS, 'quick.cts'), code]]), commonjs)).toEqual([]);
  });
});
