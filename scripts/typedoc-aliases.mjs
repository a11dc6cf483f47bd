// TypeDoc plugin: a property typed by a type alias of a mapped or conditional type (`parameters:
// ReadonlyObjectJsonSchema`, i.e. `Frozen<ObjectJsonSchema>`) links to the alias, as the source
// spells it. TypeDoc converts a property from the checker's type, which has lost the alias there, and
// writes the whole evaluated object out, several levels deep, at every such property.
import ts from 'typescript';
import { Converter, ReflectionKind, ReflectionType } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Property) || !(reflection.type instanceof ReflectionType)) return;
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0];
    const node = declaration !== undefined && (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) ? declaration.type : undefined;
    if (node === undefined || !ts.isTypeReferenceNode(node)) return;
    const target = context.checker.getSymbolAtLocation(node.typeName);
    const alias = target !== undefined && target.flags & ts.SymbolFlags.Alias ? context.checker.getAliasedSymbol(target) : target;
    if (alias === undefined || !(alias.flags & ts.SymbolFlags.TypeAlias)) return;
    context.project.removeReflection(reflection.type.declaration);
    reflection.type = context.converter.convertType(context.withScope(reflection), node);
  });
}
