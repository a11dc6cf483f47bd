import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The root index as a list of folder faces: `src/index.ts` imports `reflect-metadata`, then only
 * re-exports from `./folder` (the folder's `index.ts`, never `./folder/file`): all of the face
 * (`export *`; `export type *` for a face of types only) or a named list, each name one its face
 * names. A face the root reads is nothing but its folder's public names: named re-exports from its
 * own folder, each one exported by the root, bar the internal helpers listed here (a face with one
 * is never read whole).
 */
const INTERNAL: Readonly<Record<string, readonly string[]>> = { errors: ['describeThrown'] };

const root = path.resolve(__dirname, '../..');
const src = path.join(root, 'src');
const parse = (file: string, text = fs.readFileSync(file, 'utf8')): ts.SourceFile => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
const specifierOf = (statement: ts.ExportDeclaration): string | undefined =>
  statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;

/** A face's statements that are not `export … from './inside-the-folder'`, the names it exports, and whether all are types. */
function readFace(folder: string): { readonly strays: readonly string[]; readonly names: ReadonlySet<string>; readonly typesOnly: boolean } {
  const strays: string[] = [];
  const names = new Set<string>();
  let typesOnly = true;
  for (const statement of parse(path.join(src, folder, 'index.ts')).statements) {
    const specifier = ts.isExportDeclaration(statement) ? specifierOf(statement) : undefined;
    if (!ts.isExportDeclaration(statement) || specifier === undefined || !specifier.startsWith('./')) strays.push(statement.getText());
    else if (statement.exportClause === undefined || !ts.isNamedExports(statement.exportClause)) strays.push(`${statement.getText()} (a face names its exports)`);
    else
      for (const element of statement.exportClause.elements) {
        names.add(element.name.text);
        typesOnly &&= statement.isTypeOnly || element.isTypeOnly;
      }
  }
  return { strays, names, typesOnly };
}

/** The folders whose `index.ts` is a subpath entry point of package.json (`toolwright/mcp`, …). */
const subpathFolders = (): string[] => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  return Object.values(pkg.exports)
    .flatMap((target) => (typeof target === 'object' && target.types !== undefined ? [target.types] : []))
    .map((types) => path.dirname(path.relative('dist', types)))
    .filter((dir) => dir !== '.');
};

/** What a root index (`src/index.ts`'s text) takes from each face, and its statements that are not a face re-export. */
function readRoot(text: string): { readonly strays: readonly string[]; readonly taken: ReadonlyMap<string, readonly string[]> } {
  const strays: string[] = [];
  const taken = new Map<string, string[]>();
  parse(path.join(src, 'index.ts'), text).statements.forEach((statement, index) => {
    if (index === 0 && ts.isImportDeclaration(statement) && statement.importClause === undefined && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === 'reflect-metadata') return;
    const specifier = ts.isExportDeclaration(statement) ? specifierOf(statement) : undefined;
    const folder = specifier?.match(/^\.\/([a-z-]+)$/)?.[1];
    const isFace = folder !== undefined && fs.existsSync(path.join(src, folder, 'index.ts')) && !fs.existsSync(path.join(src, `${folder}.ts`));
    const whole = isFace && ts.isExportDeclaration(statement) && statement.exportClause === undefined && (!statement.isTypeOnly || readFace(folder).typesOnly);
    const named = ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause) ? statement.exportClause : undefined;
    if (!isFace || (!whole && named === undefined) || (whole && INTERNAL[folder] !== undefined)) {
      strays.push(statement.getText().split('\n')[0]);
      return;
    }
    const names = named === undefined ? [...readFace(folder).names] : named.elements.map((element) => element.name.text);
    taken.set(folder, [...(taken.get(folder) ?? []), ...names]);
  });
  return { strays, taken };
}

/** The names a root takes from a face that the face does not export, as `folder: name`. */
const notInFace = (taken: ReadonlyMap<string, readonly string[]>): string[] =>
  [...taken].flatMap(([folder, names]) => names.filter((name) => !readFace(folder).names.has(name)).map((name) => `${folder}: ${name}`));

/** The names a root exports more than once. */
const twice = (taken: ReadonlyMap<string, readonly string[]>): string[] => {
  const names = [...taken.values()].flat();
  return names.filter((name, i) => names.indexOf(name) !== i);
};

describe('the root index', () => {
  const { strays, taken } = readRoot(fs.readFileSync(path.join(src, 'index.ts'), 'utf8'));
  const faces = [...taken.keys()].sort();

  it("imports reflect-metadata first, then only re-exports folder faces ('./x', never './x/y')", () => {
    expect(strays).toEqual([]);
    expect(faces.length).toBeGreaterThan(5);
  });

  it('exports every name once, each one its face exports', () => {
    expect(twice(taken)).toEqual([]);
    expect(notInFace(taken)).toEqual([]);
  });

  it('reads faces that are only their folder’s public names, never a subpath entry point', () => {
    expect(faces.filter((folder) => subpathFolders().includes(folder))).toEqual([]);
    const extra = faces.flatMap((folder) => {
      const { strays: faceStrays, names } = readFace(folder);
      const unexported = [...names].filter((name) => !taken.get(folder)!.includes(name) && !(INTERNAL[folder] ?? []).includes(name));
      return [...faceStrays, ...unexported].map((what) => `${folder}: ${what}`);
    });
    expect(extra).toEqual([]);
  });

  it('catches a deep import, a local declaration, a name its face does not export, a face with internal names read whole, values read as types, and a name twice', () => {
    const probe = readRoot(
      "export { Toolkit } from './toolkit/toolkit';\nimport 'reflect-metadata';\nexport const x = 1;\nexport { Nope } from './toolkit';\nexport * from './errors';\nexport type * from './toolkit';\nexport * from './loop';\nexport { runToolLoop } from './loop';\nexport type * from './loop/loop-types';\n",
    );
    expect(probe.strays).toEqual(["export { Toolkit } from './toolkit/toolkit';", "import 'reflect-metadata';", 'export const x = 1;', "export * from './errors';", "export type * from './toolkit';", "export type * from './loop/loop-types';"]);
    expect(notInFace(probe.taken)).toEqual(['toolkit: Nope']);
    expect(twice(probe.taken)).toEqual(['runToolLoop']);
  });
});
