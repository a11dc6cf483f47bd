import type * as TS from 'typescript';
import { ts } from './compiler';
import type { ManifestParam } from '../model/manifest';
import { unwrapTypeNode } from './classify-param';
import { displayPath, type ScannedParam } from './scan-sources';

/** What the manifest says about the class a parameter is declared with (see {@link ManifestParam.typeRef}). */
export type ClassReference = Pick<ManifestParam, 'typeName' | 'typeRef' | 'array'>;

/** Why the generator refuses a parameter's type: the end of a sentence that starts with the parameter, fix included. */
export interface TypeProblem {
  readonly problem: string;
}

/** The longest type text or import specifier a problem quotes. */
const MAX_QUOTED = 120;

function quoted(text: string): string {
  return text.length <= MAX_QUOTED ? text : `${text.slice(0, MAX_QUOTED - 1)}…`;
}

function isLibraryFile(sourceFile: TS.SourceFile): boolean {
  return sourceFile.isDeclarationFile || /[\\/]node_modules[\\/]/.test(sourceFile.fileName);
}

function isReference(type: TS.Type): type is TS.TypeReference {
  return (type.flags & ts.TypeFlags.Object) !== 0 && ((type as TS.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0;
}

/**
 * The checker's type for a name it cannot resolve (most often: an import its module resolution
 * cannot find). Every schema reader sees `any` in it. (`intrinsicName` is how the checker itself
 * tells it from a declared `any`; TypeScript exports no test for it.)
 */
function isUnresolved(type: TS.Type): boolean {
  return (type.flags & ts.TypeFlags.Any) !== 0 && (type as { intrinsicName?: string }).intrinsicName === 'error';
}

/** The types a type is built from: union and intersection members, type arguments (arrays, tuples, generics, `Partial<T>`). */
function constituents(checker: TS.TypeChecker, type: TS.Type): TS.Type[] {
  const parts = [...(type.aliasTypeArguments ?? [])];
  if (type.isUnionOrIntersection()) parts.push(...type.types);
  if (isReference(type)) parts.push(...checker.getTypeArguments(type));
  return parts;
}

/**
 * The source file that names an unresolved type inside `type` (its constituents and, at any
 * depth, its properties), or `undefined` when every part resolves.
 */
function unresolvedIn(checker: TS.TypeChecker, type: TS.Type, file: TS.SourceFile, seen = new Set<TS.Type>()): TS.SourceFile | undefined {
  if (isUnresolved(type)) return file;
  if (seen.has(type)) return undefined;
  seen.add(type);
  for (const part of constituents(checker, type)) {
    const found = unresolvedIn(checker, part, file, seen);
    if (found !== undefined) return found;
  }
  if ((type.flags & ts.TypeFlags.Object) === 0) return undefined;
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration;
    if (declaration !== undefined && isLibraryFile(declaration.getSourceFile())) continue;
    const found = unresolvedIn(checker, checker.getTypeOfSymbol(property), declaration?.getSourceFile() ?? file, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The import specifiers of `file` that do not resolve. */
function unresolvedImports(checker: TS.TypeChecker, file: TS.SourceFile): string[] {
  return file.statements
    .filter(ts.isImportDeclaration)
    .map((statement) => statement.moduleSpecifier)
    .filter((specifier): specifier is TS.StringLiteral => ts.isStringLiteral(specifier) && checker.getSymbolAtLocation(specifier) === undefined)
    .map((specifier) => specifier.text);
}

/** The refusal of a parameter type that names something the compiler cannot resolve: its schema would accept anything there. */
function unresolvedProblem(checker: TS.TypeChecker, typeText: string, file: TS.SourceFile, cwd: string): TypeProblem {
  const imports = unresolvedImports(checker, file);
  const where = displayPath(file.fileName, cwd);
  const cause =
    imports.length === 0
      ? `${where} names a type the compiler cannot resolve (\`tsc --noEmit\` shows which)`
      : `${where} imports ${imports.slice(0, 3).map((s) => `'${quoted(s)}'`).join(', ')}` +
        `${imports.length > 3 ? ` and ${imports.length - 3} more` : ''}, which the generator's module resolution cannot find ` +
        '(without --project it resolves as NodeNext: relative imports in ES modules need their extension)';
  const bare = imports.find((specifier) => specifier.startsWith('.') && !/\.[cm]?[jt]sx?$/.test(specifier));
  const example = bare === undefined ? '' : ` ('${quoted(bare)}.js')`;
  return {
    problem:
      `(${quoted(typeText)}) does not resolve: ${cause}, so its JSON Schema would accept anything there and no class could be named. ` +
      'Fix: pass the tsconfig your toolchain compiles with (--project tsconfig.json; "moduleResolution": "bundler" for tsx, esbuild and Vite), ' +
      `or write the import as that resolution needs it${example}.`,
  };
}

/** The name of a project or package class inside `type`'s constituents (not its properties), if any. */
function nestedClass(checker: TS.TypeChecker, type: TS.Type, seen = new Set<TS.Type>()): string | undefined {
  if (seen.has(type)) return undefined;
  seen.add(type);
  const declaration = type.getSymbol()?.getDeclarations()?.find(ts.isClassDeclaration);
  if (declaration !== undefined) return declaration.name?.text ?? 'default';
  for (const part of constituents(checker, type)) {
    const found = nestedClass(checker, part, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The name a parameter's type annotation spells (`UserContext`, `ns.UserContext`, `LineDto[]`, `readonly LineDto[]`, `Array<LineDto>`, `X | undefined`). */
function namedType(node: TS.TypeNode | undefined): TS.EntityName | undefined {
  const type = unwrapTypeNode(node);
  if (type === undefined) return undefined;
  if (ts.isArrayTypeNode(type)) return namedType(type.elementType);
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) return namedType(type.type);
  if (!ts.isTypeReferenceNode(type)) return undefined;
  const name = ts.isIdentifier(type.typeName) ? type.typeName.text : undefined;
  if ((name === 'Array' || name === 'ReadonlyArray') && type.typeArguments?.length === 1) return namedType(type.typeArguments[0]);
  return type.typeName;
}

/** The import a type name comes through, and the name the imported module exports it as. */
function importOf(checker: TS.TypeChecker, name: TS.EntityName): { readonly from: TS.Expression; readonly exported: string } | undefined {
  const local = ts.isIdentifier(name) ? name : name.left;
  const declaration = ts.isIdentifier(local) ? checker.getSymbolAtLocation(local)?.getDeclarations()?.[0] : undefined;
  if (declaration === undefined) return undefined;
  if (ts.isIdentifier(name) && ts.isImportSpecifier(declaration)) {
    return { from: declaration.parent.parent.parent.moduleSpecifier, exported: (declaration.propertyName ?? declaration.name).text };
  }
  if (ts.isIdentifier(name) && ts.isImportClause(declaration)) return { from: declaration.parent.moduleSpecifier, exported: 'default' };
  if (ts.isQualifiedName(name) && ts.isNamespaceImport(declaration)) return { from: declaration.parent.parent.moduleSpecifier, exported: name.right.text };
  return undefined;
}

/**
 * The class's reference as the parameter's file imports it: `<package>#<export>` for a package
 * (a workspace package too, whose sources the compiler reaches through a symlink: the manifest
 * module must load the copy the service loads), or for a package's class re-exported by a module
 * of the project, `<module>#<export>`. `undefined` for a project class imported by a relative path
 * (its declaring module is named instead) or not imported.
 */
function importedReference(checker: TS.TypeChecker, node: TS.ParameterDeclaration, cls: TS.Symbol, fromLibrary: boolean, cwd: string): string | undefined {
  const name = namedType(node.type);
  const named = name === undefined ? undefined : checker.getSymbolAtLocation(ts.isIdentifier(name) ? name : name.right);
  const target = named !== undefined && named.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(named) : named;
  // the annotation names the class itself, not a type alias of it (which no module can import as a value)
  if (name === undefined || target === undefined || checker.getMergedSymbol(target) !== checker.getMergedSymbol(cls)) return undefined;
  const imported = importOf(checker, name);
  if (imported === undefined || !ts.isStringLiteral(imported.from)) return undefined;
  if (!imported.from.text.startsWith('.')) return `${imported.from.text}#${imported.exported}`;
  const module = fromLibrary ? checker.getSymbolAtLocation(imported.from)?.valueDeclaration : undefined;
  return module !== undefined && ts.isSourceFile(module) ? `${projectPath(module, cwd)}#${imported.exported}` : undefined;
}

/** A project file as the manifest names it: relative to `cwd`, with a leading `./` inside it. */
function projectPath(sourceFile: TS.SourceFile, cwd: string): string {
  const relative = displayPath(sourceFile.fileName, cwd);
  return `${relative.startsWith('../') ? '' : './'}${relative}`;
}

/**
 * `<module>#<export>` for a class a module of the project exports (`./src/user.ts#UserContext`,
 * `./src/user.ts#default`), relative to `cwd`; `undefined` when its module does not export it.
 */
function exportReference(checker: TS.TypeChecker, symbol: TS.Symbol, declaration: TS.ClassDeclaration, cwd: string): string | undefined {
  const sourceFile = declaration.getSourceFile();
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (moduleSymbol === undefined) return undefined;
  const target = checker.getMergedSymbol(symbol);
  const names = checker
    .getExportsOfModule(moduleSymbol)
    .filter((e) => checker.getMergedSymbol(e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e) === target)
    .map((e) => e.getName());
  const name = names.includes(symbol.getName()) ? symbol.getName() : (names.find((n) => n !== 'default') ?? names[0]);
  return name === undefined ? undefined : `${projectPath(sourceFile, cwd)}#${name}`;
}

/**
 * The class a parameter is declared with, for the manifest: a context class (`kind: 'context'`),
 * or for a model parameter any class (a DTO; a class without class-validator rules is refused at
 * registration, as reflection refuses it) or `Date`, also as an array item (`T[]`, `readonly T[]`).
 * `undefined` for anything else (primitives, interfaces, enums, literal unions, whose JSON Schema
 * says all there is).
 *
 * A {@link TypeProblem} for a model parameter whose type the manifest cannot describe truthfully
 * — unless `@ToolParam` says the type ({@link ScannedParam.explicitType}), which wins at run time: a name the
 * compiler cannot resolve (its schema would accept anything), or a class inside a union, an
 * intersection or a generic type (`OrderDto | string`, `Partial<OrderDto>`), which no toolchain
 * can validate with class-validator or pass as an instance. A class inside an interface or an
 * object type is not looked for: such a parameter is a plain object, its schema all there is.
 */
export function classReference(
  checker: TS.TypeChecker,
  param: ScannedParam,
  kind: 'model' | 'context',
  cwd: string,
): ClassReference | TypeProblem | undefined {
  const node = param.node;
  const declared = node.type !== undefined ? checker.getTypeFromTypeNode(node.type) : checker.getTypeAtLocation(node);
  const typeText = node.type?.getText() ?? checker.typeToString(declared);
  if (kind === 'model' && !param.explicitType) {
    const unresolved = unresolvedIn(checker, declared, node.getSourceFile());
    if (unresolved !== undefined) return unresolvedProblem(checker, typeText, unresolved, cwd);
  }
  let type = checker.getNonNullableType(declared);
  let array = false;
  if (kind === 'model' && checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type as TS.TypeReference);
    if (item === undefined) return undefined;
    type = checker.getNonNullableType(item);
    array = true;
  }
  const symbol = type.isUnionOrIntersection() ? undefined : type.getSymbol();
  const declarations = symbol?.getDeclarations() ?? [];
  const declaration = declarations.find(ts.isClassDeclaration);
  if (symbol === undefined || declaration === undefined) {
    const nested = kind === 'model' && !param.explicitType ? nestedClass(checker, type) : undefined;
    if (nested === undefined) {
      const isDate = kind === 'model' && symbol?.getName() === 'Date' && declarations.every((d) => d.getSourceFile().hasNoDefaultLib);
      return isDate ? { typeName: 'Date', ...(array ? { array } : {}) } : undefined;
    }
    return {
      problem:
        `(${quoted(typeText)}) holds the class ${nested} inside a union, an intersection or a generic type. Only a parameter declared ` +
        `as the class itself (${nested}, ${nested}[], with \`?\`, \`| undefined\` or \`| null\`) is validated by class-validator and passed as an instance: ` +
        'this one would be checked by its JSON Schema alone and arrive as a plain object. Fix: declare it as one DTO class (a class of its ' +
        "own for a partial or combined shape), or say what the model sends: @ToolParam({ type: () => TheDto }), or @ToolParam({ schema: { type: 'object', … } }) " +
        'for a plain object checked by that schema alone.',
    };
  }
  const typeName = declaration.name?.text ?? symbol.getName(); // `export default class X`: the symbol is `default`
  const fromLibrary = isLibraryFile(declaration.getSourceFile());
  const typeRef = importedReference(checker, node, symbol, fromLibrary, cwd) ?? (fromLibrary ? undefined : exportReference(checker, symbol, declaration, cwd));
  return { typeName, ...(typeRef === undefined ? {} : { typeRef }), ...(array ? { array } : {}) };
}
