import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { instrumentToolkit } from '../../src/otel';

const root = resolve(__dirname, '../../src');

/** The packages an entry point loads at run time (type-only imports are erased), following relative imports. */
function runtimePackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const imports = /^(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm;
    for (const match of source.matchAll(imports)) {
      const spec = match[1] ?? match[2];
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const base = resolve(dirname(file), spec);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
      if (!target) throw new Error(`${file}: cannot resolve '${spec}'`);
      visit(target);
    }
  };
  visit(entry);
  return packages;
}

describe('pipeline entry points', () => {
  it('the core entry point never loads @opentelemetry/api (an optional peer dependency)', () => {
    const packages = [...runtimePackages(join(root, 'index.ts'))];
    expect(packages.filter((p) => p.startsWith('@opentelemetry/'))).toEqual([]);
  });

  it('the otel entry point does, and exports instrumentToolkit', () => {
    expect(runtimePackages(join(root, 'otel/index.ts')).has('@opentelemetry/api')).toBe(true);
    expect(typeof instrumentToolkit).toBe('function');
  });
});
