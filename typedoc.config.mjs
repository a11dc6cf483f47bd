// `npm run docs`: the API reference of every entry point in package.json `exports`, from the
// JSDoc, into docs/api/ (git-ignored). Warnings fail the run: they mean broken output (a link to
// something not documented, a comment TypeDoc would overwrite).
import { entries } from './scripts/typedoc-entries.mjs';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'toolwright',
  entryPoints: entries.map(([, source]) => `src/${source}.ts`),
  entryPointStrategy: 'resolve',
  plugin: ['./scripts/typedoc-entries.mjs'],
  tsconfig: 'tsconfig.build.json',
  out: 'docs/api',
  readme: 'README.md',
  excludeInternal: true,
  excludePrivate: true,
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, unusedMergeModuleWith: true, notDocumented: false },
  sourceLinkTemplate: 'https://github.com/toolwright/toolwright/blob/{gitRevision}/{path}#L{line}',
};
