import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { writeProject } from '../support/project-files';
import { sourceFiles } from '../support/source-files';

/**
 * The seams between the folders of `src/` as a test: an internal interface (or a type alias of an
 * object type) with operations (methods or callbacks), declared in one folder and implemented,
 * extended or required (the type of a parameter, a field or a return value) in another, couples
 * the two folders through a shape the package does not publish. Each such seam is listed here by
 * name, so that a new one fails this test until it is either avoided (a part takes the few values
 * it uses) or added on purpose; there are at most four. Public types (those an entry point of the
 * package exports) are the contract, not seams.
 */
const SEAMS: readonly string[] = [
  'executor/CallOrigin',
  'executor/ExecutorParts',
  'executor/ToolEntry',
  'resources/CatalogAccess',
];

/**
 * The narrowest seams: an internal function type (one operation) declared in one folder and
 * supplied or required in another, listed too (`name()`), so that none comes unnoticed either.
 */
const CALLBACKS: readonly string[] = [
  'executor/AvailabilityGate()',
  'executor/RemoteRunner()',
  'executor/Scrub()',
  'schema/ArgumentRestorer()',
  'schema/NullStripper()',
  'toolkit/WorkerRunner()',
  'utils/CallbackFailureReporter()',
];

const src = path.resolve(__dirname, '../../src');

const folderOf = (root: string, file: string): string => {
  const relative = path.relative(root, path.resolve(file));
  return relative.includes(path.sep) ? relative.split(path.sep)[0] : '(root)';
};

/** The entry points of the package (`exports` of package.json), as source files. */
function entryPoints(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(src, '../package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  return Object.values(manifest.exports)
    .map((target) => (typeof target === 'string' ? undefined : target.types))
    .filter((types): types is string => types !== undefined)
    .map((types) => path.resolve(src, '..', types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')));
}

/** The seams of the sources under `root` (`entries`: the files whose exports are published), each with the files that use it. */
function findSeams(root: string, entries: readonly string[]): Map<string, Set<string>> {
  const program = ts.createProgram(sourceFiles(root), { strict: true, experimentalDecorators: true, skipLibCheck: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

  const published = new Set<ts.Symbol>();
  for (const entry of entries) {
    const module = program.getSourceFile(entry) && checker.getSymbolAtLocation(program.getSourceFile(entry)!);
    if (module) for (const symbol of checker.getExportsOfModule(module)) published.add(resolve(symbol));
  }

  /** The declared folder of an internal interface, object type alias or function type alias (`callback`) `name` refers to, else `undefined`. */
  const internalShape = (name: ts.EntityName | ts.Expression): { name: string; folder: string; callback?: true } | undefined => {
    const symbol = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : ts.isPropertyAccessExpression(name) ? name.name : name);
    if (!symbol) return undefined;
    const target = resolve(symbol);
    if (published.has(target)) return undefined;
    const callback = target.declarations?.find((d) => ts.isTypeAliasDeclaration(d) && ts.isFunctionTypeNode(d.type));
    if (callback !== undefined) return callback.getSourceFile().fileName.startsWith(root) ? { name: target.name, folder: folderOf(root, callback.getSourceFile().fileName), callback: true } : undefined;
    const declaration = target.declarations?.find((d) => ts.isInterfaceDeclaration(d) || (ts.isTypeAliasDeclaration(d) && !ts.isTypeQueryNode(d.type)));
    if (!declaration || !declaration.getSourceFile().fileName.startsWith(root)) return undefined;
    const declared = ts.isTypeAliasDeclaration(declaration) ? declaration.type : undefined;
    if (declared && ts.isTypeReferenceNode(declared) && declared.typeName.getText() !== 'Pick' && declared.typeName.getText() !== 'Omit') return undefined;
    if (declared && (ts.isUnionTypeNode(declared) || ts.isLiteralTypeNode(declared) || ts.isTemplateLiteralTypeNode(declared))) return undefined;
    const shape = checker.getDeclaredTypeOfSymbol(target);
    const operates = shape.getProperties().some((member) => {
      const type = checker.getTypeOfSymbol(member);
      return member.flags & ts.SymbolFlags.Method || checker.getNonNullableType(type).getCallSignatures().length > 0;
    });
    if (!operates) return undefined;
    return { name: target.name, folder: folderOf(root, declaration.getSourceFile().fileName) };
  };

  const seams = new Map<string, Set<string>>();
  const note = (reference: ts.EntityName | ts.Expression, user: string): void => {
    const shape = internalShape(reference);
    if (shape && shape.folder !== folderOf(root, user)) {
      const key = `${shape.folder}/${shape.name}${shape.callback ? '()' : ''}`;
      seams.set(key, (seams.get(key) ?? new Set()).add(path.relative(root, user)));
    }
  };
  /** Every type a type node names, however nested (`Pick<X, …>`, `X & Y`, `readonly X[]`). */
  const namesIn = (node: ts.Node, user: string): void => {
    if (ts.isTypeReferenceNode(node)) note(node.typeName, user);
    if (ts.isExpressionWithTypeArguments(node)) note(node.expression, user);
    ts.forEachChild(node, (child) => namesIn(child, user));
  };

  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(root)) continue;
    const user = file.fileName;
    const visit = (node: ts.Node): void => {
      if (ts.isHeritageClause(node)) namesIn(node, user);
      if ((ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isPropertySignature(node)) && node.type) namesIn(node.type, user);
      if (ts.isFunctionLike(node) && node.type) namesIn(node.type, user);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return seams;
}

describe('seams', () => {
  const seams = findSeams(src, entryPoints());
  const found = [...seams.keys()].sort();

  it('lists every internal interface and function type one folder of src/ declares and another implements or requires', () => {
    process.stdout.write(`seams (${found.length}):\n${found.map((key) => `  ${key} <- ${[...seams.get(key)!].sort().join(', ')}`).join('\n')}\n`);
    const interfaces = found.filter((key) => !key.endsWith('()'));
    expect(interfaces.filter((key) => !SEAMS.includes(key))).toEqual([]);
    expect(interfaces.length).toBeLessThanOrEqual(4);
    // a seam that is gone leaves the list too, so that it cannot come back unnoticed
    expect(interfaces).toEqual([...SEAMS].sort());
    expect(found.filter((key) => key.endsWith('()'))).toEqual([...CALLBACKS].sort());
  });

  it('finds a shape with operations or a function type implemented, extended, required or returned across folders, and nothing else', () => {
    const root = writeProject('seams-', {
      'low/shapes.ts': [
        'export interface Host { run(): void }',
        'export interface Sink { readonly send: (text: string) => void }',
        'export type Core = { readonly name: string; stop(): void };',
        'export interface Extended { ping(): void }',
        'export interface Record { readonly name: string }',
        'export interface Published { run(): void }',
        'export interface Local { run(): void }',
        'export type Callback = () => void;',
        'export interface Made { close(): void }',
        'export type Local2 = () => void;',
        'export const local = (l: Local, f: Local2): void => { l.run(); f(); };',
      ].join('\n'),
      'index.ts': "export type { Published } from './low/shapes';\n",
      'high/user.ts': [
        "import type { Callback, Core, Extended, Host, Made, Published, Record, Sink } from '../low/shapes';",
        'export class Runner implements Host { run(): void {} }',
        'export interface Wider extends Extended { pong(): void }',
        'export function use(sink: Sink, record: Record, published: Published, callback: Callback): void { sink.send(record.name); published.run(); callback(); }',
        'export class Holder { constructor(readonly core: Pick<Core, "stop">) {} }',
        'export function make(): Made { return { close: () => undefined }; }',
      ].join('\n'),
    });
    try {
      const found = findSeams(root, [path.join(root, 'index.ts')]);
      expect([...found.keys()].sort()).toEqual(['low/Callback()', 'low/Core', 'low/Extended', 'low/Host', 'low/Made', 'low/Sink']);
      expect([...found.get('low/Host')!]).toEqual([path.join('high', 'user.ts')]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
