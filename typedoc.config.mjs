// `npm run docs` (first step): the API reference of every entry point in package.json `exports`,
// from the JSDoc, as markdown pages for the VitePress site in docs/api/ (git-ignored), one page per
// entry point, with docs/api/typedoc-sidebar.json for docs/.vitepress/config.mts. Warnings fail the
// run: they mean broken output (a link to something not documented, a comment TypeDoc would overwrite).
import { entries } from './scripts/typedoc-entries.mjs';

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions>} */
export default {
  name: 'toolwright',
  entryPoints: entries.map(([, source]) => `src/${source}.ts`),
  entryPointStrategy: 'resolve',
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme', './scripts/typedoc-entries.mjs', './scripts/typedoc-links.mjs'],
  tsconfig: 'tsconfig.build.json',
  out: 'docs/api',
  docsRoot: 'docs',
  outputFileStrategy: 'modules',
  readme: 'none',
  typeDeclarationVisibility: 'compact',
  // every heading carries the anchor TypeDoc's links use (`<a id="api-toolkitsession">`): VitePress
  // slugs a heading from its text alone, so `Toolkit.session` and `ToolkitSession` would collide
  useHTMLAnchors: true,
  anchorPrefix: 'api-',
  parametersFormat: 'table',
  disableGit: true,
  gitRevision: 'main',
  displayBasePath: '.',
  excludeInternal: true,
  excludePrivate: true,
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, unusedMergeModuleWith: true, notDocumented: false },
  sourceLinkTemplate: 'https://github.com/toolwright/toolwright/blob/main/{path}#L{line}',
};
