import type * as TS from 'typescript';
import { ts } from './compiler';
import type { InjectedKind } from '../model/manifest';
import { resolveImportedName, type ImportBindings, type ScannedParam } from './scan-sources';

/** How the toolkit fills a parameter, by the rule the run time applies too. */
export type ParamClassification =
  | { readonly kind: 'model' }
  | { readonly kind: 'injected'; readonly injected: InjectedKind };

const BY_TYPE_NAME: ReadonlyMap<string, InjectedKind> = new Map([
  ['ToolEmitter', 'emitter'],
  ['AbortSignal', 'signal'],
  ['ClientRequests', 'client'],
]);

/** The declared type without parentheses and without `| null` / `| undefined`. */
export function unwrapTypeNode(node: TS.TypeNode | undefined): TS.TypeNode | undefined {
  let current = node;
  for (;;) {
    if (current === undefined) return undefined;
    if (ts.isParenthesizedTypeNode(current)) {
      current = current.type;
      continue;
    }
    if (ts.isUnionTypeNode(current)) {
      const rest = current.types.filter(
        (t) =>
          t.kind !== ts.SyntaxKind.UndefinedKeyword &&
          !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
      );
      if (rest.length === 1) {
        current = rest[0];
        continue;
      }
    }
    return current;
  }
}

/** The name a type reference spells (`ToolEmitter`, `tw.ToolEmitter`), seen through imports. */
function referencedName(node: TS.TypeNode | undefined, imports: ImportBindings): string | undefined {
  if (node === undefined || !ts.isTypeReferenceNode(node)) return undefined;
  const typeName = node.typeName;
  return ts.isIdentifier(typeName) ? resolveImportedName(typeName.text, imports) : typeName.right.text;
}

/**
 * Classifies one parameter of a `@Tool` method:
 * `@ToolParam({ preset: true })` → injected preset; other `@ToolParam` → model; `@InjectContext` → injected context
 * (the decorator carries the key); else a declared type named `ToolEmitter` / `AbortSignal` /
 * `ClientRequests` → injected emitter / signal / client; else a class type → injected context (by class); else model.
 * The type names are matched on the syntax first, so detection works even when the import of
 * `ToolEmitter` cannot be resolved.
 */
export function classifyParam(param: ScannedParam, checker: TS.TypeChecker, imports: ImportBindings): ParamClassification {
  if (param.preset) return { kind: 'injected', injected: 'preset' };
  if (param.hasToolParam) return { kind: 'model' };
  if (param.injectContext) return { kind: 'injected', injected: 'context' };
  const typeNode = unwrapTypeNode(param.node.type);
  const syntacticName = referencedName(typeNode, imports);
  const bySyntax = syntacticName === undefined ? undefined : BY_TYPE_NAME.get(syntacticName);
  if (bySyntax !== undefined) return { kind: 'injected', injected: bySyntax };
  const declared = param.node.type !== undefined ? checker.getTypeFromTypeNode(param.node.type) : checker.getTypeAtLocation(param.node);
  const type = checker.getNonNullableType(declared);
  if (type.isUnion() || (type.flags & ts.TypeFlags.Object) === 0) return { kind: 'model' };
  const symbol = type.getSymbol();
  if (symbol === undefined) return { kind: 'model' };
  const byName = BY_TYPE_NAME.get(symbol.getName());
  if (byName !== undefined) return { kind: 'injected', injected: byName };
  const isClass = (symbol.getDeclarations() ?? []).some((d) => ts.isClassDeclaration(d) || ts.isClassExpression(d));
  if (isClass) return { kind: 'injected', injected: 'context' };
  return { kind: 'model' };
}
