import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sourceFiles } from '../support/source-files';

/**
 * The architecture as a test: each folder of `src/` imports only folders of lower layers (type
 * imports included), never a sibling of its own layer, and no file takes part in an import circle.
 * The layers, lowest first (docs/contributing/architecture.md draws them; a test below keeps it true):
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors'],
  ['utils'],
  ['model'],
  ['metadata'],
  ['di'],
  ['decorators', 'schema'],
  ['executor'],
  ['resources'],
  ['toolkit'],
  ['approval', 'hooks', 'loop', 'providers', 'mcp', 'otel', 'build', 'adapters', 'nestjs', 'bullmq'],
  ['redis', 'postgres', 'testing'],
];

const src = path.resolve(__dirname, '../../src');

/** The `src/` files a file imports (static, type-only, re-exports, `import()` and `require()`). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => {
      const base = path.resolve(path.dirname(file), name.replace(/\.js$/, ''));
      return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
    })
    .filter((resolved): resolved is string => resolved !== undefined);
}

const folderOf = (file: string): string => {
  const relative = path.relative(src, file);
  return relative.includes(path.sep) ? relative.split(path.sep)[0] : '(root)';
};

const rankOf = (folder: string): number => (folder === '(root)' ? LAYERS.length : LAYERS.findIndex((layer) => layer.includes(folder)));

const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const show = (file: string): string => path.relative(src, file);

describe('architecture', () => {
  it('every folder of src/ belongs to a layer', () => {
    const unknown = [...new Set(files.map(folderOf))].filter((folder) => rankOf(folder) < 0);
    expect(unknown).toEqual([]);
  });

  it('imports go only to lower layers (never up, never to a sibling of the same layer)', () => {
    const violations: string[] = [];
    for (const [file, imports] of graph) {
      const from = folderOf(file);
      for (const target of imports) {
        const to = folderOf(target);
        if (to !== from && rankOf(to) >= rankOf(from)) violations.push(`${show(file)} -> ${show(target)}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the architecture page draws these layers, in this order', () => {
    const page = fs.readFileSync(path.resolve(__dirname, '../../docs/contributing/architecture.md'), 'utf8');
    const section = page.slice(page.indexOf('## Layers'));
    const drawing = section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
    const drawn = [...drawing.matchAll(/^(\d+)  ([a-z]+(?: · [a-z]+)*)/gm)].map((m) => ({ rank: Number(m[1]), folders: m[2].split(' · ') }));
    expect(drawn).toEqual(LAYERS.map((folders, i) => ({ rank: i + 1, folders: [...folders] })).reverse());
  });

  it('no file takes part in an import circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next].map(show).join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});
