import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolManifest } from '../model/manifest';
import { serializeManifest } from './serialize-manifest';

/** Options of {@link serializeManifestModule}. */
export interface ManifestModuleOptions {
  /**
   * The module file to be written: imports are relative to its directory, and end in `.js` when
   * it is an ES module (`.mts`, or `"type": "module"` in the nearest package.json).
   */
  readonly outFile: string;
  /** The directory the manifest's paths are relative to (the generator's `cwd`). */
  readonly cwd: string;
}

const HEADER =
  '// Written by toolwright-schema: the tool manifest, with the classes its parameters name for toolchains\n' +
  '// without decorator metadata (esbuild, tsx, vitest). Regenerate it; do not edit it.\n';
const DECLARATION = 'export const manifest: ToolManifest = ';
const TYPES_KEY = ',\n  "types": {';

/**
 * True when Node loads `file` as an ES module: an `.mts` file, or a `.ts` file whose nearest
 * package.json says `"type": "module"`.
 */
function isEsModule(file: string): boolean {
  if (/\.c[jt]sx?$/.test(file)) return false;
  if (/\.m[jt]sx?$/.test(file)) return true;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const packageJson = path.join(dir, 'package.json');
    if (fs.existsSync(packageJson)) {
      try {
        return (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false; // Node fails on it before any of this matters
      }
    }
    if (path.dirname(dir) === dir) return false;
  }
}

/**
 * A source file as an import specifier from `fromDir`: in an ES module with the `.js` extension
 * Node needs (and TypeScript, tsx, esbuild and Vite map back to `.ts`); in a CommonJS module
 * without one, which ts-node and Jest resolve too (they do not map `.js` to `.ts`).
 */
function importSpecifier(fromDir: string, cwd: string, modulePath: string, esm: boolean): string {
  if (!modulePath.startsWith('.')) return modulePath; // a package
  const relative = path.relative(fromDir, path.resolve(cwd, modulePath)).split(path.sep).join('/');
  const withDot = relative.startsWith('.') ? relative : `./${relative}`;
  return withDot.replace(/\.(m|c)?tsx?$/, (_, kind: string | undefined) => (kind !== undefined ? `.${kind}js` : esm ? '.js' : ''));
}

/** Every `typeRef` the manifest's parameters hold, sorted. */
function typeRefs(manifest: ToolManifest): string[] {
  const refs = new Set<string>();
  for (const cls of Object.values(manifest.classes)) {
    for (const method of Object.values(cls.methods)) for (const param of method.params) if (param.typeRef !== undefined) refs.add(param.typeRef);
  }
  return [...refs].sort();
}

/**
 * The manifest as a TypeScript module (`tools.manifest.ts`) exporting `manifest`: the JSON
 * manifest plus `types`, a thunk per class its parameters name (context classes, DTO classes),
 * imported from where they are exported. With it, toolchains that emit no decorator metadata
 * (esbuild, tsx, vitest) still validate DTOs with class-validator and inject contexts. Relative
 * imports are written as the module's format resolves them: with `.js` in an ES module (reads the
 * nearest package.json), without an extension in CommonJS, where ts-node and Jest load it too.
 *
 * @example
 * fs.writeFileSync('src/tools.manifest.ts', serializeManifestModule(manifest, { outFile: 'src/tools.manifest.ts', cwd: process.cwd() }));
 * // then: import { manifest } from './tools.manifest'; new Toolkit({ manifest });
 */
export function serializeManifestModule(manifest: ToolManifest, options: ManifestModuleOptions): string {
  const cwd = path.resolve(options.cwd);
  const outFile = path.resolve(cwd, options.outFile);
  const fromDir = path.dirname(outFile);
  const esm = isEsModule(outFile);
  const refs = typeRefs(manifest);
  const byModule = new Map<string, string[]>();
  refs.forEach((ref, i) => {
    const hash = ref.lastIndexOf('#');
    const specifier = importSpecifier(fromDir, cwd, ref.slice(0, hash), esm);
    byModule.set(specifier, [...(byModule.get(specifier) ?? []), `${ref.slice(hash + 1)} as t${i}`]);
  });
  const imports = [...byModule].map(([specifier, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(specifier)};\n`);
  const json = serializeManifest(manifest).trimEnd();
  const types = refs.map((ref, i) => `\n    ${JSON.stringify(ref)}: () => t${i}`).join(',');
  return (
    // reflect-metadata first: class-transformer's `@Type` reads it while the imported classes are defined
    `${HEADER}import 'reflect-metadata';\nimport type { ToolManifest } from 'toolwright';\n${imports.join('')}\n` +
    `${DECLARATION}${json.slice(0, -2)}${TYPES_KEY}${types}${refs.length > 0 ? '\n  ' : ''}}\n};\n`
  );
}

/** The JSON manifest inside a module written by {@link serializeManifestModule} (for `--check`'s report), or `undefined`. */
export function manifestJsonOfModule(text: string): string | undefined {
  const start = text.indexOf(DECLARATION);
  const end = text.lastIndexOf(TYPES_KEY);
  return start < 0 || end < start ? undefined : `${text.slice(start + DECLARATION.length, end)}\n}\n`;
}
