import * as ts from 'typescript';
import type { ManifestParam } from '../common/manifest';
import { unwrapTypeNode } from './classify-param';
import { displayPath } from './scan-sources';

/** What the manifest says about the class a parameter is declared with (see {@link ManifestParam.typeRef}). */
export type ClassReference = Pick<ManifestParam, 'typeName' | 'typeRef' | 'array'>;

function isLibraryFile(sourceFile: ts.SourceFile): boolean {
  return sourceFile.isDeclarationFile || /[\\/]node_modules[\\/]/.test(sourceFile.fileName);
}

/** True when the class (or a base class) has a decorated member: class-validator rules the schema cannot hold. */
function hasDecoratedMembers(checker: ts.TypeChecker, type: ts.Type, seen = new Set<ts.Type>()): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  const declarations = type.getSymbol()?.getDeclarations() ?? [];
  for (const declaration of declarations) {
    if (!ts.isClassDeclaration(declaration)) continue;
    if (declaration.members.some((member) => ts.canHaveDecorators(member) && (ts.getDecorators(member)?.length ?? 0) > 0)) return true;
  }
  const isClass = (type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Class) !== 0;
  return isClass && checker.getBaseTypes(type as ts.InterfaceType).some((base) => hasDecoratedMembers(checker, base, seen));
}

/** The identifier a parameter's type annotation names (`UserContext`, `LineDto[]`, `Array<LineDto>`, `X | undefined`). */
function namedIdentifier(node: ts.TypeNode | undefined): ts.Identifier | undefined {
  const type = unwrapTypeNode(node);
  if (type === undefined) return undefined;
  if (ts.isArrayTypeNode(type)) return namedIdentifier(type.elementType);
  if (!ts.isTypeReferenceNode(type)) return undefined;
  if (ts.isIdentifier(type.typeName) && type.typeName.text === 'Array' && type.typeArguments?.length === 1) return namedIdentifier(type.typeArguments[0]);
  return ts.isIdentifier(type.typeName) ? type.typeName : undefined;
}

/**
 * `<package>#<export>` for a class from a package, as the parameter's file imports it
 * (`import { ToolExecutionContext } from 'toolwright'`); `undefined` for a relative import or none.
 */
function packageReference(checker: ts.TypeChecker, node: ts.ParameterDeclaration): string | undefined {
  const identifier = namedIdentifier(node.type);
  const alias = identifier === undefined ? undefined : checker.getSymbolAtLocation(identifier);
  const specifier = alias?.getDeclarations()?.find(ts.isImportSpecifier);
  if (specifier === undefined) return undefined;
  const from = specifier.parent.parent.parent.moduleSpecifier;
  if (!ts.isStringLiteral(from) || from.text.startsWith('.')) return undefined;
  return `${from.text}#${(specifier.propertyName ?? specifier.name).text}`;
}

/**
 * `<module>#<export>` for a class a module of the project exports (`./src/user.ts#UserContext`,
 * `./src/user.ts#default`), relative to `cwd`; `undefined` when its module does not export it.
 */
function exportReference(checker: ts.TypeChecker, symbol: ts.Symbol, declaration: ts.ClassDeclaration, cwd: string): string | undefined {
  const sourceFile = declaration.getSourceFile();
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (moduleSymbol === undefined) return undefined;
  const target = checker.getMergedSymbol(symbol);
  const names = checker
    .getExportsOfModule(moduleSymbol)
    .filter((e) => checker.getMergedSymbol(e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e) === target)
    .map((e) => e.getName());
  const name = names.includes(symbol.getName()) ? symbol.getName() : (names.find((n) => n !== 'default') ?? names[0]);
  if (name === undefined) return undefined;
  const relative = displayPath(sourceFile.fileName, cwd);
  return `${relative.startsWith('../') ? '' : './'}${relative}#${name}`;
}

/**
 * The class a parameter is declared with, for the manifest: a context class (`kind: 'context'`),
 * or for a model parameter a DTO class (one with decorated members) or `Date`, also as an array
 * item. `undefined` for anything else (primitives, interfaces, unions, undecorated classes,
 * whose JSON Schema says all there is).
 */
export function classReference(
  checker: ts.TypeChecker,
  node: ts.ParameterDeclaration,
  kind: 'model' | 'context',
  cwd: string,
): ClassReference | undefined {
  const declared = node.type !== undefined ? checker.getTypeFromTypeNode(node.type) : checker.getTypeAtLocation(node);
  let type = checker.getNonNullableType(declared);
  let array = false;
  if (kind === 'model' && checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type as ts.TypeReference);
    if (item === undefined) return undefined;
    type = checker.getNonNullableType(item);
    array = true;
  }
  if (type.isUnion()) return undefined;
  const symbol = type.getSymbol();
  if (symbol === undefined) return undefined;
  const declarations = symbol.getDeclarations() ?? [];
  const withArray = (ref: ClassReference): ClassReference => (array ? { ...ref, array: true } : ref);
  if (kind === 'model' && symbol.getName() === 'Date' && declarations.every((d) => d.getSourceFile().hasNoDefaultLib)) {
    return withArray({ typeName: 'Date' });
  }
  const declaration = declarations.find(ts.isClassDeclaration);
  if (declaration === undefined) return undefined;
  if (kind === 'model' && !hasDecoratedMembers(checker, type)) return undefined;
  const typeName = declaration.name?.text ?? symbol.getName(); // `export default class X`: the symbol is `default`
  const typeRef = isLibraryFile(declaration.getSourceFile())
    ? packageReference(checker, node)
    : exportReference(checker, symbol, declaration, cwd);
  return withArray(typeRef === undefined ? { typeName } : { typeName, typeRef });
}
