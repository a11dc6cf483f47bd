import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The root index as a list of folder faces. `src/index.ts` imports `reflect-metadata`, then only
 * re-exports whole faces: `export * from './folder'` (the folder's `index.ts`), or `export type *`
 * for a face of types only, so that `require('toolwright')` does not load it. A face names what its
 * folder publishes, each name re-exported from a file of its own folder.
 */

const root = path.resolve(__dirname, '../..');
const src = path.join(root, 'src');
const parse = (file: string, text: string): ts.SourceFile => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
const firstLine = (node: ts.Node): string => node.getText().split('\n')[0]!;
const specifierOf = (statement: ts.Statement): string | undefined =>
  ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
const faceFile = (folder: string): string => path.join(src, folder, 'index.ts');

/** What a face (a folder's `index.ts`) holds besides named re-exports from its own folder, and whether all its names are types. */
function readFace(file: string, text = fs.readFileSync(file, 'utf8')): { readonly strays: readonly string[]; readonly typesOnly: boolean } {
  const strays: string[] = [];
  let typesOnly = true;
  for (const statement of parse(file, text).statements) {
    const specifier = specifierOf(statement);
    const named = ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause) ? statement.exportClause : undefined;
    if (specifier === undefined) strays.push(`${firstLine(statement)} (a face only re-exports)`);
    else if (!specifier.startsWith('./') || specifier.split('/').includes('..')) strays.push(`${firstLine(statement)} (not from its own folder)`);
    else if (named === undefined) strays.push(`${firstLine(statement)} (a face names its exports)`);
    else for (const element of named.elements) typesOnly &&= (statement as ts.ExportDeclaration).isTypeOnly || element.isTypeOnly;
  }
  return { strays, typesOnly };
}

/** The folders of `src/` whose `index.ts` is a subpath entry point of package.json (`toolwright/mcp`, …). */
function subpathFolders(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  return Object.values(pkg.exports)
    .flatMap((target) => (typeof target === 'object' && target.types !== undefined ? [target.types] : []))
    .map((types) => path.posix.dirname(path.posix.relative('./dist', types)))
    .filter((folder) => folder !== '.');
}

/** The faces a root index (`src/index.ts`'s text) reads, and its statements that are not faces. */
function readRoot(text: string): { readonly faces: readonly string[]; readonly strays: readonly string[] } {
  const faces: string[] = [];
  const strays: string[] = [];
  const subpaths = subpathFolders();
  parse(path.join(src, 'index.ts'), text).statements.forEach((statement, index) => {
    if (index === 0 && ts.isImportDeclaration(statement) && statement.importClause === undefined && (statement.moduleSpecifier as ts.StringLiteral).text === 'reflect-metadata') return;
    const specifier = specifierOf(statement);
    const whole = ts.isExportDeclaration(statement) && statement.exportClause === undefined;
    const face = specifier?.match(/^\.\/([a-z-]+)$/)?.[1];
    if (whole && face !== undefined && !subpaths.includes(face) && fs.existsSync(faceFile(face))) {
      const { typesOnly } = readFace(faceFile(face));
      if (statement.isTypeOnly === typesOnly) faces.push(face);
      else strays.push(`${firstLine(statement)} (${typesOnly ? 'a face of types only is read with export type *' : 'a face with values is read with export *'})`);
    } else strays.push(firstLine(statement));
  });
  return { faces, strays };
}

describe('the root index', () => {
  const { faces, strays } = readRoot(fs.readFileSync(path.join(src, 'index.ts'), 'utf8'));

  it('imports reflect-metadata first, then re-exports whole folder faces, nothing else', () => {
    expect(strays).toEqual([]);
    expect(faces.length).toBeGreaterThan(5);
  });

  it('reads faces that re-export only names of their own folder, each by name', () => {
    expect(faces.flatMap((folder) => readFace(faceFile(folder)).strays.map((stray) => `${folder}: ${stray}`))).toEqual([]);
  });

  it("reads every folder's face that is not a subpath entry point", () => {
    const folders = fs.readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory() && fs.existsSync(faceFile(entry.name)));
    const unread = folders.map((entry) => entry.name).filter((folder) => !faces.includes(folder) && !subpathFolders().includes(folder));
    expect(unread).toEqual([]);
  });

  it('catches a deep import, a local declaration, a subpath or unknown face, a face read as the wrong kind, and a face that reaches out of its folder', () => {
    /** Probe lines of a root index, each with what the check makes of it: read, or a stray (with the reason it gives). */
    const lines: readonly (readonly [line: string, verdict: 'read' | 'stray' | `(${string})`])[] = [
      ["export * from './errors';", 'read'],
      ["import 'reflect-metadata';", 'stray'],
      ["export { Toolkit } from './toolkit/toolkit';", 'stray'],
      ['export const x = 1;', 'stray'],
      ["export { ToolkitError } from './errors';", 'stray'],
      ["export * from './mcp';", 'stray'],
      ["export * from './nowhere';", 'stray'],
      ["export type * from './toolkit';", '(a face with values is read with export *)'],
      ["export * from './metadata';", '(a face of types only is read with export type *)'],
      ["export * from './utils';", 'stray'],
      ["export { Principal } from './model/principal';", 'stray'],
    ];
    const probe = readRoot(lines.map(([line]) => line).join('\n'));
    expect(probe.strays).toEqual(lines.filter(([, verdict]) => verdict !== 'read').map(([line, verdict]) => (verdict === 'stray' ? line : `${line} ${verdict}`)));
    expect(probe.faces).toEqual(['errors']);
    const face = readFace(faceFile('toolkit'), "export { Toolkit } from './toolkit';\nexport { ToolkitError } from '../errors';\nexport * from './session';\nexport const y = 2;\n");
    expect(face.strays).toEqual([
      "export { ToolkitError } from '../errors'; (not from its own folder)",
      "export * from './session'; (a face names its exports)",
      'export const y = 2; (a face only re-exports)',
    ]);
    expect(face.typesOnly).toBe(false);
  });
});
