// The package's entry points, read from package.json `exports`: TypeDoc documents each of them
// (typedoc.config.mjs) under the name a user imports it by (this file is also the plugin that
// renames the modules: `providers/openai` → `toolwright/openai`).
import { readFileSync } from 'node:fs';
import { Converter, ReflectionKind } from 'typedoc';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** `[import specifier, source path under src/ without the extension]` per entry point with types. */
export const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
  .map(([key, target]) => [pkg.name + key.slice(1), target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '')]);

/**
 * TypeDoc's default module name for a source path: its path from `displayBasePath` (the repository
 * root, so that "Defined in" shows `src/…` paths), without a trailing `/index`.
 */
const defaultName = (source) => `src/${source}`.replace(/\/index$/, '');

/** @param {import('typedoc').Application} app */
export function load(app) {
  const names = new Map(entries.map(([specifier, source]) => [defaultName(source), specifier]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const name = names.get(module.name);
      if (name === undefined) throw new Error(`typedoc: module ${module.name} is no entry point of package.json`);
      module.name = name;
    }
  });
}
