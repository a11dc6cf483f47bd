import type { ManifestClass, ManifestMethod, ManifestParam, ToolManifest } from '../model/manifest';
import { normalizeSchema } from './normalize-schema';

function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function canonicalParam(param: ManifestParam): ManifestParam {
  const out: ManifestParam = { name: param.name, index: param.index, optional: param.optional, kind: param.kind };
  if (param.injected !== undefined) out.injected = param.injected;
  if (param.typeName !== undefined) out.typeName = param.typeName;
  if (param.typeRef !== undefined) out.typeRef = param.typeRef;
  if (param.array === true) out.array = true;
  if (param.description !== undefined) out.description = param.description;
  if (param.schema !== undefined) out.schema = normalizeSchema(param.schema);
  return out;
}

function canonicalMethod(method: ManifestMethod): ManifestMethod {
  const params = method.params.map(canonicalParam);
  const out: ManifestMethod = method.description !== undefined ? { description: method.description, params } : { params };
  if (method.returns !== undefined) out.returns = normalizeSchema(method.returns);
  return out;
}

/**
 * The manifest with a canonical key order: classes and methods sorted by name, parameters in
 * call order, fixed field and schema keyword order. Two equal manifests canonicalise to the
 * same JSON text.
 */
export function canonicalManifest(manifest: ToolManifest): ToolManifest {
  const classes: Record<string, ManifestClass> = {};
  for (const [className, cls] of sortedEntries(manifest.classes)) {
    const methods: Record<string, ManifestMethod> = {};
    for (const [methodName, method] of sortedEntries(cls.methods)) methods[methodName] = canonicalMethod(method);
    classes[className] = { file: cls.file, methods };
  }
  return { version: manifest.version, generator: manifest.generator, classes };
}

/**
 * The manifest as JSON text: canonical key order, 2-space indentation and a trailing newline,
 * so a committed manifest diffs well and `--check` can compare texts.
 *
 * @example fs.writeFileSync('tools.manifest.json', serializeManifest(generateManifest({ files })));
 */
export function serializeManifest(manifest: ToolManifest): string {
  return `${JSON.stringify(canonicalManifest(manifest), null, 2)}\n`;
}
