// TypeDoc plugin for the markdown API reference's links.
// - A property typed by a type alias of a mapped or conditional type (`parameters:
//   ReadonlyObjectJsonSchema`, i.e. `Frozen<ObjectJsonSchema>`) links to the alias, as the source
//   spells it. TypeDoc converts a property from the checker's type, which has lost the alias there,
//   and writes the whole evaluated object out, several levels deep, at every such property.
// - "Defined in" links only into the repository: a member inherited from a declaration under
//   node_modules (`Error.cause`, from TypeScript's lib) names its file without a link.
// - An anchor is spelled alike in the `<a id>` before its heading and in every link to it:
//   typedoc-vitepress-theme slugs the anchors of same-page links only (`#api-log_levels` →
//   `#api-log-levels`), so ids and the other links are slugged the same way here.
import ts from 'typescript';
import { Converter, DeclarationReflection, ReflectionKind, ReflectionType, SignatureReflection } from 'typedoc';
import { MarkdownPageEvent } from 'typedoc-plugin-markdown';

/** typedoc-vitepress-theme's anchor slug (its `slugifyAnchor`, which the package does not export). */
const slug = (anchor) =>
  anchor
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();

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
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      const withSources = reflection instanceof DeclarationReflection || reflection instanceof SignatureReflection ? reflection.sources ?? [] : [];
      for (const source of withSources) if (/(^|\/)node_modules\//.test(source.fullFileName)) source.url = undefined;
    }
  });
  app.renderer.on(MarkdownPageEvent.END, (page) => {
    if (!page.contents) return;
    page.contents = page.contents
      .replace(/<a id="([^"]+)"><\/a>/g, (_, id) => `<a id="${slug(id)}"></a>`)
      .replace(/\]\((?!https?:)([^)\s#]*)#([^)\s]+)\)/g, (_, target, anchor) => `](${target}#${slug(decodeURI(anchor))})`);
  });
}
