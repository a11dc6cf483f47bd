import { readFileSync } from 'node:fs';
import type { ToolManifest } from '../model/manifest';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';

/**
 * Checks that `value` has the shape of a toolwright-schema manifest and returns it typed.
 *
 * @throws ToolkitError `INVALID_MANIFEST` naming what is wrong.
 */
export function parseManifest(value: unknown, source = 'the manifest'): ToolManifest {
  const fail = (why: string): never => {
    throw new ToolkitError('INVALID_MANIFEST', `${source} is not a toolwright-schema manifest: ${why}. Regenerate it with toolwright-schema.`);
  };
  if (typeof value !== 'object' || value === null) return fail('it is not a JSON object');
  const manifest = value as Partial<ToolManifest>;
  if (manifest.generator !== 'toolwright-schema') fail(`"generator" is ${JSON.stringify(manifest.generator)}`);
  if (manifest.version !== 1) fail(`version ${JSON.stringify(manifest.version)} is not supported (this toolwright reads version 1)`);
  if (typeof manifest.classes !== 'object' || manifest.classes === null) fail('"classes" is missing');
  for (const [name, entry] of Object.entries(manifest.classes!)) {
    if (typeof entry?.methods !== 'object' || entry.methods === null) fail(`class ${name} has no "methods"`);
    for (const [method, info] of Object.entries(entry.methods)) {
      if (!Array.isArray(info?.params)) fail(`${name}.${method} has no "params" list`);
    }
  }
  return value as ToolManifest;
}

/**
 * Reads a manifest written by `toolwright-schema` (for `new Toolkit({ manifest })`).
 *
 * @example
 * const toolkit = new Toolkit({ manifest: loadManifest('dist/tools.manifest.json') });
 * @throws ToolkitError `INVALID_MANIFEST` when the file cannot be read, is not JSON, or is not a manifest.
 */
export function loadManifest(path: string): ToolManifest {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ToolkitError('INVALID_MANIFEST', `Cannot read the manifest ${path} because ${describeThrown(e)}. Generate it with toolwright-schema.`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ToolkitError('INVALID_MANIFEST', `The manifest ${path} is not valid JSON because ${describeThrown(e)}.`, { cause: e });
  }
  return parseManifest(json, `The manifest ${path}`);
}
