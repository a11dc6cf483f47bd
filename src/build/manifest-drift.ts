import type { ToolManifest } from '../model/manifest';
import { serializeManifest } from './serialize-manifest';

/** @internal What changed between the manifest on disk and the generated one, one line per method (for `--check`). */
export function describeDrift(onDisk: string | undefined, generated: ToolManifest): string[] {
  if (onDisk === undefined) return ['  the file on disk is not a manifest module'];
  let old: ToolManifest;
  try {
    old = JSON.parse(onDisk) as ToolManifest;
  } catch {
    return ['  the file on disk is not valid JSON'];
  }
  if (typeof old !== 'object' || old === null || typeof old.classes !== 'object' || old.classes === null) {
    return ['  the file on disk is not a toolwright manifest'];
  }
  const flatten = (m: ToolManifest): Map<string, string> => {
    const out = new Map<string, string>();
    for (const [className, cls] of Object.entries(m.classes)) {
      for (const [methodName, method] of Object.entries(cls?.methods ?? {})) {
        out.set(`${className}.${methodName}`, JSON.stringify({ file: cls.file, method }));
      }
    }
    return out;
  };
  const before = flatten(old);
  const after = flatten(JSON.parse(serializeManifest(generated)) as ToolManifest);
  const lines: string[] = [];
  for (const [key, value] of after) {
    if (!before.has(key)) lines.push(`  + ${key} (new)`);
    else if (before.get(key) !== value) lines.push(`  ~ ${key} (changed)`);
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`  - ${key} (removed)`);
  if (lines.length === 0) lines.push('  formatting or header fields differ');
  return lines.length > 20 ? [...lines.slice(0, 20), `  … and ${lines.length - 20} more`] : lines;
}
